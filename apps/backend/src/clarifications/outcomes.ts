/**
 * How a clarification ends, as pure decisions: which status each way of settling produces, which
 * transitions are allowed, and how agentctl's verdict on an answer maps to HTTP.
 */
import type { AgentEvent, ClarificationAnswer, ClarificationStatus, ElicitationOutcome, ErrorCode, Resolution } from "@kandev/protocol";

export const TERMINAL_STATUSES: readonly ClarificationStatus[] = ["answered", "declined", "cancelled", "timed_out", "agent_disconnected"];

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
}

/**
 * Maps agentctl's refusal of `agent.elicitations.respond` to HTTP (D5: agentctl alone
 * adjudicates). None of them changes the record: whatever agentctl settled, it reported in its own
 * `elicitation.settled` (sent before this reply on the same stream). NOT_FOUND: answered or ended
 * already; a validation failure leaves it open (F10); a stream that is not connected means the
 * answer never left, so it stays open too (AC-20a).
 */
export function verdictForRespondError(code: ErrorCode): HttpVerdict {
  switch (code) {
    case "NOT_FOUND":
      return { status: 404, code: "NOT_FOUND" };
    case "VALIDATION_ERROR":
    case "BAD_REQUEST":
      return { status: 400, code: "VALIDATION_ERROR" };
    case "NOT_CONNECTED":
      return { status: 503, code: "agent_stream_not_connected" };
    case "TIMEOUT":
      return { status: 504, code: "TIMEOUT" };
    case "CONFLICT":
      return { status: 409, code: "CONFLICT" };
    case "UNAUTHORIZED":
    case "UNKNOWN_ACTION":
    case "INTERNAL_ERROR":
    case "LIMIT_EXCEEDED":
    case "AGENT_ERROR":
      return { status: 502, code: "AGENTCTL_ERROR" };
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

/** The reason given with a Skip, trimmed; none for an answer or a blank reason. */
function skipReason(rejected: boolean, reason: string | undefined): string | undefined {
  const why = reason?.trim();
  return rejected && why ? why : undefined;
}

/** The resolution of an operator's answer: who, when, what was chosen, why skipped, which user. */
function answeredResolution(by: string, at: string, answers: unknown, rejectReason: string | undefined, user: string | undefined): Resolution {
  return {
    by,
    at,
    ...(answers !== undefined && { answers }),
    ...(rejectReason !== undefined && { reject_reason: rejectReason }),
    ...(user !== undefined && { user }),
  };
}

/** The resolution an operator's answer to a ask-tool question writes (the record adjudicates). */
export function operatorResolution(answer: ClarificationAnswer, at: string, user?: string): Resolution {
  return answeredResolution(operatorBy(answer), at, answer.answers, skipReason(answer.rejected === true, answer.reject_reason), user);
}

/**
 * The resolution agentctl's `elicitation.settled` records: its reason as `by`, and for an
 * operator's settle the answer and user the event carries. The one record of the outcome.
 */
export function resolutionForSettledEvent(event: AgentEvent<"elicitation.settled">, at: string): Resolution {
  return answeredResolution(event.reason, at, event.answers, skipReason(event.reason === "operator_rejected", event.reject_reason), event.user);
}

/**
 * How ask-tool records end when their turn ends before anyone answered: agentctl abandoned the
 * tool call (turn cancel, agent exit) without telling the backend, so the backend settles them.
 */
export function kandevTurnEndSettle(stopReason: string): { status: ClarificationStatus; by: string } {
  if (stopReason === "cancelled") return { status: "cancelled", by: "turn_cancelled" };
  if (stopReason === "error") return { status: "agent_disconnected", by: "turn_error" };
  return { status: "cancelled", by: "turn_ended" };
}
