/**
 * How a clarification ends, as pure decisions: which status each way of settling produces, which
 * transitions are allowed, and how agentctl's verdict on an answer maps to HTTP.
 */
import type { ClarificationAnswer, ClarificationStatus, ElicitationOutcome, ErrorCode, Resolution } from "@kandev/protocol";

export const TERMINAL_STATUSES: readonly ClarificationStatus[] = [
  "answered",
  "declined",
  "cancelled",
  "timed_out",
  "agent_disconnected",
];

/** Only a pending record can settle; a settled one never changes again (first settle wins). */
export function canSettle(status: ClarificationStatus): boolean {
  return status === "pending";
}

/** Status of a record the operator's own answer settled. */
export function statusForOperatorAnswer(answer: ClarificationAnswer): ClarificationStatus {
  return answer.rejected ? "declined" : "answered";
}

/**
 * agentctl's settle reasons that mean the asking agent (or agentctl itself) is going away rather
 * than anyone deciding: the record reads `agent_disconnected`, like a crash the backend sees itself.
 */
const AGENT_GONE_REASONS: ReadonlySet<string> = new Set(["agent_exited", "agent_disconnected", "shutdown"]);

/** Status for agentctl's `elicitation.settled` event (DECISIONS F7). */
export function statusForSettledEvent(outcome: ElicitationOutcome, reason = ""): ClarificationStatus {
  switch (outcome) {
    case "answered":
      return "answered";
    case "declined":
      return "declined";
    case "cancelled":
      return AGENT_GONE_REASONS.has(reason) ? "agent_disconnected" : "cancelled";
    case "timed_out":
      return "timed_out";
    default: {
      const unreachable: never = outcome;
      throw new Error(`unknown outcome ${String(unreachable)}`);
    }
  }
}

export interface HttpVerdict {
  status: number;
  code: string;
  /** Whether the backend settles its record after this verdict. */
  settle: boolean;
}

/**
 * Maps agentctl's answer to `agent.elicitations.respond` (D5: agentctl alone adjudicates).
 * NOT_FOUND settles a record that is still open locally; a validation failure leaves it open; a
 * stream that is not connected means the answer never left, so the record stays open (AC-20a).
 */
export function verdictForRespondError(code: ErrorCode): HttpVerdict {
  switch (code) {
    case "NOT_FOUND":
      return { status: 404, code: "NOT_FOUND", settle: true };
    case "VALIDATION_ERROR":
    case "BAD_REQUEST":
      return { status: 400, code: "VALIDATION_ERROR", settle: false };
    case "NOT_CONNECTED":
      return { status: 503, code: "agent_stream_not_connected", settle: false };
    case "TIMEOUT":
      return { status: 504, code: "TIMEOUT", settle: false };
    case "CONFLICT":
      return { status: 409, code: "CONFLICT", settle: false };
    case "UNAUTHORIZED":
    case "UNKNOWN_ACTION":
    case "INTERNAL_ERROR":
      return { status: 502, code: "AGENTCTL_ERROR", settle: false };
    default: {
      const unreachable: never = code;
      throw new Error(`unknown code ${String(unreachable)}`);
    }
  }
}

/** `resolution.by` for an operator's own answer: the same words agentctl uses in its settle event. */
export function operatorBy(answer: ClarificationAnswer): "operator" | "operator_rejected" {
  return answer.rejected ? "operator_rejected" : "operator";
}

/** The resolution an operator's answer writes: who, when, and what was chosen. */
export function operatorResolution(answer: ClarificationAnswer, at: string): Resolution {
  return { by: operatorBy(answer), at, answers: answer.answers };
}

/**
 * agentctl announces an operator's settle (`elicitation.settled`, reason operator) before it
 * answers the respond request, so the record is usually settled already, without the answers, when
 * the success arrives. Returns the resolution with the answers added, or null when there is
 * nothing to add (settled some other way, or answers already recorded).
 */
export function withOperatorAnswers(current: Resolution | null, answer: ClarificationAnswer): Resolution | null {
  if (current === null || current.answers !== undefined) return null;
  if (current.by !== operatorBy(answer)) return null;
  return { ...current, answers: answer.answers };
}

/**
 * How kandev-tool records end when their turn ends before anyone answered: agentctl abandoned the
 * tool call (turn cancel, agent exit) without telling the backend, so the backend settles them.
 */
export function kandevTurnEndSettle(stopReason: string): { status: ClarificationStatus; by: string } {
  if (stopReason === "cancelled") return { status: "cancelled", by: "turn_cancelled" };
  if (stopReason === "error") return { status: "agent_disconnected", by: "turn_error" };
  return { status: "cancelled", by: "turn_ended" };
}

/** Status and `by` when agentctl answers NOT_FOUND for a record still pending here. */
export const NOT_FOUND_SETTLE = { status: "cancelled", by: "agentctl_not_found" } as const satisfies {
  status: ClarificationStatus;
  by: string;
};
