/**
 * What the operator is told after pressing Submit or Skip, decided from the HTTP answer of
 * `POST /api/v1/clarifications/:id/respond` (DECISIONS §3) alone, so every branch is tested here.
 */
import type { ClarificationStatus } from "@kandev/protocol";
import type { NoticeKind } from "./pending";

export type RespondResult = { ok: true; status: ClarificationStatus } | { ok: false; httpStatus: number; code: string; message: string };

/** Why an answer can be sent again, with the overlay still open. */
export type RetryReason = "not-delivered" | "timeout" | "invalid" | "network" | "failed";

export type SubmitOutcome =
  /** The agent has the answer (or the skip); the overlay goes away. */
  | { kind: "sent" }
  /** Nothing more can be sent for this question; the overlay closes with a notice. */
  | { kind: "closed"; notice: NoticeKind }
  /** The answer did not get through but the question is still open: keep the overlay, allow a retry. */
  | { kind: "retry"; reason: RetryReason; message: string };

export function submitOutcome(result: RespondResult): SubmitOutcome {
  if (result.ok) {
    // A 200 for a question whose agent was already gone: the answer is kept on the message as a
    // record of the operator's choice but never delivered (spec, Failure modes).
    return result.status === "answered" || result.status === "declined" ? { kind: "sent" } : { kind: "closed", notice: "recorded-only" };
  }
  const { httpStatus, code, message } = result;
  // 404: already answered or withdrawn (agentctl's verdict for elicitations, D5); 409: the kandev
  // tool's record was answered first by someone else.
  if (httpStatus === 404 || httpStatus === 409) return { kind: "closed", notice: "already-settled" };
  if (httpStatus === 503 || code === "agent_stream_not_connected") return { kind: "retry", reason: "not-delivered", message };
  if (httpStatus === 504) return { kind: "retry", reason: "timeout", message };
  if (httpStatus === 400) return { kind: "retry", reason: "invalid", message };
  if (httpStatus === 0) return { kind: "retry", reason: "network", message };
  return { kind: "retry", reason: "failed", message };
}

/**
 * A failed respond call as a RespondResult: API errors keep their HTTP status and code (they are
 * read duck-typed, so this module stays free of I/O imports); anything else counts as the network.
 */
export function respondFailure(err: unknown): RespondResult {
  if (typeof err === "object" && err !== null) {
    const { status, code, message } = err as { status?: unknown; code?: unknown; message?: unknown };
    if (typeof status === "number" && typeof code === "string") {
      return { ok: false, httpStatus: status, code, message: typeof message === "string" ? message : code };
    }
  }
  return { ok: false, httpStatus: 0, code: "NETWORK", message: err instanceof Error ? err.message : String(err) };
}
