import type { AgentStatus, MessageType, PendingAction, SessionState, TaskState } from "@kandev/protocol";

/** Session states in which an agentctl process belongs to the session. */
export function isLiveSessionState(state: SessionState): boolean {
  switch (state) {
    case "CREATED":
    case "STARTING":
    case "RUNNING":
    case "WAITING_FOR_INPUT":
      return true;
    case "COMPLETED":
    case "FAILED":
    case "CANCELLED":
      return false;
    default: {
      const _x: never = state;
      return _x;
    }
  }
}

/** True while a turn is being started or runs. */
export function isTurnActive(state: SessionState | null): boolean {
  return state === "STARTING" || state === "RUNNING";
}

/**
 * DECISIONS A4: over the session's current turn, any unresolved clarification wins, then a pending
 * permission, else nothing. `unresolved` lists the types of the turn's messages that still request input.
 */
export function pendingActionOf(unresolved: readonly MessageType[]): PendingAction {
  if (unresolved.includes("clarification_request")) return "clarification";
  if (unresolved.includes("permission_request")) return "permission";
  return null;
}

/**
 * The task's state follows its latest session's state and pending action: a task without a session
 * is TODO, a pending clarification or permission means a human is needed (WAITING_FOR_INPUT: the
 * turn cannot go on without the operator either way), a finished turn means the operator should
 * review.
 */
export function deriveTaskState(session: SessionState | null, pending: PendingAction): TaskState {
  if (session === null) return "TODO";
  switch (session) {
    case "CREATED":
      return "TODO";
    case "STARTING":
    case "RUNNING":
      return pending !== null ? "WAITING_FOR_INPUT" : "IN_PROGRESS";
    case "WAITING_FOR_INPUT":
      return pending !== null ? "WAITING_FOR_INPUT" : "REVIEW";
    case "COMPLETED":
      return "COMPLETED";
    case "FAILED":
      return "FAILED";
    case "CANCELLED":
      return "CANCELLED";
    default: {
      const _x: never = session;
      return _x;
    }
  }
}

/**
 * Whether a session's agent is there, from its row alone: a live session waiting for a prompt has
 * no error (every way its agent goes away under it marks one, lifecycle/interruption.ts).
 */
export function agentStatusOf(state: SessionState, error: string | null): AgentStatus {
  switch (state) {
    case "CREATED":
    case "STARTING":
    case "RUNNING":
      return "running";
    case "WAITING_FOR_INPUT":
      return error === null ? "idle" : "closed";
    case "COMPLETED":
    case "FAILED":
    case "CANCELLED":
      return "closed";
    default: {
      const _x: never = state;
      return _x;
    }
  }
}
