// A session whose agent went away under it without the agent ending it: the backend restarted
// (every agentctl died with it), this host's agentctl died while the backend ran on, or the board
// closed an idle agent (idle timeout, `POST /sessions/:id/close`). All end the same way, in one
// function, and a later prompt resumes any of them (ACP session/load when the agent can).
import type { InterruptionCode, SessionState } from "@kandev/protocol";
import { isLiveSessionState } from "../domain/task-state.js";
import * as turnsRepo from "../repos/turns.js";
import type { SessionRow } from "../repos/sessions.js";
import type { LiveStore } from "./store.js";

/** Why a session was interrupted, as the operator reads it and as records are settled. */
export interface Interruption {
  /** The session's `error` (and its turn's); marks the session resumable. */
  error: string;
  /** `reason` of its open requests, `by` of its clarifications; the session's `interruption` code. */
  by: InterruptionCode;
  /** The status message a starting or mid-turn session gets. */
  status: string;
}

export const BACKEND_RESTARTED: Interruption = {
  error: "backend restarted",
  by: "backend_restarted",
  status: "Session ended: the backend restarted",
};

export const AGENTCTL_STOPPED: Interruption = {
  error: "agentctl stopped",
  by: "agentctl_stopped",
  status: "Session ended: agentctl stopped",
};

/** The session waited for its next prompt for KANDEV_SESSION_IDLE_TIMEOUT: its agent was stopped. */
export const IDLE_CLOSED: Interruption = {
  error: "closed while idle",
  by: "idle_timeout",
  status: "Session closed: the agent was idle",
};

/** `POST /sessions/:id/close`: the operator stopped the agent of a session waiting for input. */
export const OPERATOR_CLOSED: Interruption = {
  error: "closed by the operator",
  by: "session_closed",
  status: "Session closed by the operator",
};

/**
 * The operator moved a task back from Done to Review (PATCH /tasks/:id): its session had ended, so
 * its next prompt resumes it like a session a restart left behind.
 */
export const REOPENED_ERROR = "reopened from Done";

/** Each mark an interruption leaves in a session's `error`, with its stable code. */
const MARKS = new Map<string, InterruptionCode>([
  [BACKEND_RESTARTED.error, BACKEND_RESTARTED.by],
  [AGENTCTL_STOPPED.error, AGENTCTL_STOPPED.by],
  [IDLE_CLOSED.error, IDLE_CLOSED.by],
  [OPERATOR_CLOSED.error, OPERATOR_CLOSED.by],
  [REOPENED_ERROR, "reopened"],
]);

/** The code of the interruption a session's `error` marks, or null when it marks none. */
export function interruptionOf(error: string | null): InterruptionCode | null {
  return error === null ? null : (MARKS.get(error) ?? null);
}

/**
 * Settles one interrupted session (its clarifications were settled just before, by the caller).
 * Its open requests are closed. A session whose turn had finished keeps its state, so its task
 * stays in REVIEW: the work is done and the operator still has to look at it; its error says the
 * agent is gone. A session that was starting or mid-turn becomes CANCELLED with a status message,
 * so the interruption is visible. Idempotent. Returns true when the session was interrupted
 * mid-work (CANCELLED).
 */
export function settleInterrupted(
  store: LiveStore,
  s: Pick<SessionRow, "id" | "taskId" | "state" | "error" | "currentTurnId">,
  why: Interruption,
): boolean {
  if (s.state === "WAITING_FOR_INPUT") {
    store.settleOpenRequests(s.id, why.by);
    if (s.error !== why.error) store.updateSession(s.id, { error: why.error });
    return false;
  }
  if (s.currentTurnId !== null) turnsRepo.endTurn(store.db, s.currentTurnId, { stopReason: "cancelled", error: why.error });
  store.settleOpenRequests(s.id, why.by);
  store.addMessage({
    sessionId: s.id,
    taskId: s.taskId,
    turnId: s.currentTurnId,
    authorType: "agent",
    type: "status",
    content: why.status,
    metadata: { interruption: why.by },
  });
  store.updateSession(s.id, { state: "CANCELLED", error: why.error });
  return true;
}

/**
 * A session whose agentctl went away under it takes a new prompt by resuming: finished work
 * (WAITING_FOR_INPUT) and interrupted work (CANCELLED) alike, both marked by settleInterrupted.
 * Failed sessions and sessions cancelled by the operator do not.
 */
export function isResumable(session: { state: SessionState; error: string | null }): boolean {
  return session.error !== null && MARKS.has(session.error) && (session.state === "WAITING_FOR_INPUT" || session.state === "CANCELLED");
}

/**
 * The session takes no more prompts (the one owner of this fact; clients read `Session.ended`):
 * it left the live states and no interruption left it resumable.
 */
export function isEnded(session: { state: SessionState; error: string | null }): boolean {
  return !isLiveSessionState(session.state) && !isResumable(session);
}
