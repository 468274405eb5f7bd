// Which board moves an operator may make (PATCH /api/v1/tasks/:id {state, archived}). A task's
// state otherwise follows its session (task-state.ts); the operator only closes a finished task
// (Done = COMPLETED, which ends its session) or takes one back from Done to Review. Pure.
import type { TaskState } from "@kandev/protocol";

export type MoveDecision =
  | { kind: "stay" }
  | { kind: "complete" }
  | { kind: "reopen" }
  | { kind: "refused"; status: 400 | 409; reason: "not_movable" | "turn_running" | "not_started" | "not_done"; message: string };

/** What moving a task in `from` (with a turn running or not) to `to` does, or why it is refused. */
export function decideMove(from: TaskState, to: TaskState, turnActive: boolean): MoveDecision {
  if (from === to) return { kind: "stay" };
  switch (to) {
    case "COMPLETED":
      if (turnActive || from === "IN_PROGRESS" || from === "WAITING_FOR_INPUT") {
        return refused(409, "turn_running", "the agent is still working on this task; stop its turn first, then move it to Done");
      }
      if (from === "TODO") return refused(409, "not_started", "the task's agent has not started yet; it cannot be done");
      return { kind: "complete" };
    case "REVIEW":
      if (from !== "COMPLETED") return refused(409, "not_done", `only a task in Done (COMPLETED) moves back to Review; this one is ${from}`);
      return { kind: "reopen" };
    case "TODO":
    case "IN_PROGRESS":
    case "WAITING_FOR_INPUT":
    case "FAILED":
    case "CANCELLED":
      return refused(400, "not_movable", `a task is moved to COMPLETED (Done) or REVIEW only; ${to} follows from its agent's session`);
    default: {
      const unreachable: never = to;
      return unreachable;
    }
  }
}

/** Archiving hides a task from the board: refused while its agent works, so no running agent is out of sight. */
export function archiveRefusal(turnActive: boolean): string | null {
  return turnActive ? "the agent is still working on this task; stop its turn first, then archive it" : null;
}

function refused(
  status: 400 | 409,
  reason: Extract<MoveDecision, { kind: "refused" }>["reason"],
  message: string,
): Extract<MoveDecision, { kind: "refused" }> {
  return { kind: "refused", status, reason, message };
}
