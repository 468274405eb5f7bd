// Which board moves the operator can make by dragging a task or with the keyboard: the same rules
// as the API's (apps/backend/src/domain/task-moves.ts): a task in Review goes to Done, a task in
// Done (completed) comes back to Review. Pure, so the board offers only moves the API accepts.
import type { Task, TaskState } from "@kandev/protocol";
import { BOARD_COLUMNS, type BoardColumn, columnOf } from "./board-columns";

/** The state a task takes when dropped on `column`, or null when that column does not take it. */
export function dropTarget(task: Pick<Task, "state" | "turn_active">, column: BoardColumn): TaskState | null {
  if (columnOf(task.state) === column || task.turn_active) return null;
  // Failed and cancelled tasks are shown in Done already; the API completes them too, the board need not.
  if (column === "done" && task.state === "REVIEW") return "COMPLETED";
  if (column === "review" && task.state === "COMPLETED") return "REVIEW";
  return null;
}

/**
 * The keyboard's move: the nearest column in `direction` (Shift+Arrow right or left) that takes the
 * task, or null when none does.
 */
export function keyboardMove(
  task: Pick<Task, "state" | "turn_active">,
  direction: "left" | "right",
): { column: BoardColumn; state: TaskState } | null {
  const from = BOARD_COLUMNS.indexOf(columnOf(task.state));
  const step = direction === "right" ? 1 : -1;
  for (let i = from + step; i >= 0 && i < BOARD_COLUMNS.length; i += step) {
    const column = BOARD_COLUMNS[i]!;
    const state = dropTarget(task, column);
    if (state !== null) return { column, state };
  }
  return null;
}
