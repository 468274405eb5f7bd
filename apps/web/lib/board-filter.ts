// The board's search box: every word typed must be found in the task's title, its state (as the
// operator reads it, or its API name) or its agent (name or profile id). Case and accents do not
// matter. Pure.
import type { Task } from "@kandev/protocol";

export interface FilterFacts {
  /** The task's state as shown (e.g. "Ready for review"). */
  stateLabel: (task: Task) => string;
  /** The agent's name for a profile id (the id itself when unknown). */
  agentName: (profileId: string) => string;
}

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();

export function filterTasks(tasks: readonly Task[], query: string, facts: FilterFacts): readonly Task[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return tasks;
  return tasks.filter((task) => {
    const haystack = fold(
      [
        task.title,
        facts.stateLabel(task),
        task.state.replace(/_/g, " "),
        task.state,
        facts.agentName(task.agent_profile_id),
        task.agent_profile_id,
      ].join("\n"),
    );
    return words.every((w) => haystack.includes(w));
  });
}
