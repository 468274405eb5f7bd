import type { Session } from "@kandev/protocol";

/**
 * The sessions of a task before its latest one ("Start again" leaves the failed one behind), oldest
 * first, each with its number in the task's history (1 = the first). Pure.
 */
export function earlierSessions(sessions: readonly Session[], latestId: string | null): Array<{ session: Session; number: number }> {
  return [...sessions]
    .sort((a, b) => a.created_at.localeCompare(b.created_at))
    .map((session, i) => ({ session, number: i + 1 }))
    .filter(({ session }) => session.id !== latestId);
}
