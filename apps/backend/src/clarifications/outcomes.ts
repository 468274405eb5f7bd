/**
 * How a clarification ends, as pure decisions: which status each way of settling produces, which
 * transitions are allowed, and how agentctl's verdict on an answer maps to HTTP.
 */
import type { ClarificationAnswer, ClarificationStatus, ElicitationOutcome, ErrorCode } from "@kandev/protocol";

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

/** Status for agentctl's `elicitation.settled` event (DECISIONS F7). */
export function statusForSettledEvent(outcome: ElicitationOutcome): ClarificationStatus {
  switch (outcome) {
    case "answered":
      return "answered";
    case "declined":
      return "declined";
    case "cancelled":
      return "cancelled";
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
