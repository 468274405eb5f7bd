import type { Task } from "@kandev/protocol";

/** Every icon a task row can show; `task-state-<name>` is its test id. */
export const TASK_STATE_ICONS = [
  "todo",
  "starting",
  "running",
  "waiting-for-input",
  "waiting-for-permission",
  "turn-finished",
  "failed",
  "cancelled",
  "completed",
] as const;
export type TaskStateIcon = (typeof TASK_STATE_ICONS)[number];

/** The fields of a task the icon depends on (a whole `Task` fits). */
export type TaskStateInput = Pick<Task, "state" | "pending_action" | "session_state" | "turn_active">;

/**
 * Which icon a task shows. What a human must do comes first: a pending clarification is always
 * "waiting-for-input", whatever the session's state (AC-09: never running while a question waits),
 * then a pending permission. Failure beats a stale `turn_active`, and a running turn beats the
 * coarse task state.
 */
export function taskStateIcon(task: TaskStateInput): TaskStateIcon {
  if (task.pending_action === "clarification") return "waiting-for-input";
  if (task.pending_action === "permission") return "waiting-for-permission";
  if (task.state === "FAILED" || task.session_state === "FAILED") return "failed";
  if (task.turn_active) return "running";

  const state = task.state;
  switch (state) {
    case "TODO":
      return "todo";
    case "IN_PROGRESS":
      return inProgressIcon(task.session_state);
    case "WAITING_FOR_INPUT":
      return "waiting-for-input";
    case "REVIEW":
      return "turn-finished";
    case "COMPLETED":
      return "completed";
    case "CANCELLED":
      return "cancelled";
    default: {
      // FAILED was answered above, so the compiler has narrowed it away here.
      const unreachable: never = state;
      throw new Error(`unknown task state ${String(unreachable)}`);
    }
  }
}

/** An IN_PROGRESS task with no running turn: its session tells whether it is still coming up. */
function inProgressIcon(session: TaskStateInput["session_state"]): TaskStateIcon {
  switch (session) {
    case null:
    case "CREATED":
    case "STARTING":
      return "starting";
    case "RUNNING":
      return "running";
    case "WAITING_FOR_INPUT":
      return "turn-finished";
    case "COMPLETED":
      return "completed";
    case "FAILED":
      return "failed";
    case "CANCELLED":
      return "cancelled";
    default: {
      const unreachable: never = session;
      throw new Error(`unknown session state ${String(unreachable)}`);
    }
  }
}
