import type { Task, TaskState } from "@kandev/protocol";

/** The board's columns, left to right; each names the i18n key of its heading. */
export const BOARD_COLUMNS = ["todo", "inProgress", "waiting", "review", "done"] as const;
export type BoardColumn = (typeof BOARD_COLUMNS)[number];

/** Which column a task state lives in; "done" gathers every terminal state. */
export function columnOf(state: TaskState): BoardColumn {
  switch (state) {
    case "TODO":
      return "todo";
    case "IN_PROGRESS":
      return "inProgress";
    case "WAITING_FOR_INPUT":
      return "waiting";
    case "REVIEW":
      return "review";
    case "COMPLETED":
    case "FAILED":
    case "CANCELLED":
      return "done";
    default: {
      const unreachable: never = state;
      throw new Error(`unknown task state ${String(unreachable)}`);
    }
  }
}

/** Groups tasks into columns, keeping the incoming order (the API lists newest first). */
export function groupByColumn(tasks: readonly Task[]): Record<BoardColumn, Task[]> {
  const groups: Record<BoardColumn, Task[]> = { todo: [], inProgress: [], waiting: [], review: [], done: [] };
  for (const task of tasks) groups[columnOf(task.state)].push(task);
  return groups;
}
