/**
 * The answer fork (spec "Answering an elicitation — the backend half"): one REST entry point,
 * two owners of idempotency. An elicitation's answer is forwarded to agentctl FIRST, with no local
 * already-answered check in front (D5, AC-61): agentctl alone knows whether the ACP request is
 * still open. A kandev-tool answer is adjudicated here, by the record: the first answer wins.
 */
import {
  ProtocolError,
  type ClarificationAnswer,
  type ClarificationRespondResult,
} from "@kandev/protocol";
import { HttpError, notFound } from "../http/errors.js";
import * as repo from "../repos/clarifications.js";
import { nowIso } from "../repos/util.js";
import { checkKandevAnswer, formatKandevToolResult } from "./kandev-tool.js";
import { withRejectReason, withUndeliveredAnswer } from "./message.js";
import { NOT_FOUND_SETTLE, operatorResolution, statusForOperatorAnswer, verdictForRespondError, withOperatorAnswers } from "./outcomes.js";
import type { ClarificationService } from "./service.js";

/** Answers a clarification for the operator; throws HttpError for every non-200 outcome. */
export async function respondToClarification(
  service: ClarificationService,
  pendingId: string,
  answer: ClarificationAnswer,
): Promise<ClarificationRespondResult> {
  // A record's session exists: clarifications.session_id is a foreign key (ON DELETE CASCADE,
  // foreign_keys on at every open), so no session lookup is needed here.
  const row = repo.getClarification(service.db, pendingId);
  if (row === undefined) throw notFound(`clarification ${pendingId}`);
  switch (row.source) {
    case "elicitation":
      return respondElicitation(service, row, answer);
    case "kandev_tool":
      return respondKandev(service, row, answer);
    default: {
      const _x: never = row.source;
      throw new Error(`unknown clarification source ${String(_x)}`);
    }
  }
}

async function respondElicitation(service: ClarificationService, row: repo.ClarificationRow, answer: ClarificationAnswer): Promise<ClarificationRespondResult> {
  const target = service.options.liveTarget(row.sessionId);
  if (target === undefined || target.executionId !== row.executionId) {
    // The agentctl that held the ACP request is gone, and the request with it: nothing can be
    // delivered. Keep what the operator chose on the message so nothing answered is lost.
    service.settle(row.pendingId, "agent_disconnected", { by: "agent_disconnected", at: nowIso() });
    recordUndelivered(service, row.pendingId, answer);
    throw new HttpError(404, "NOT_FOUND", "the agent that asked is gone; your answer was recorded on the message but not delivered");
  }
  service.noteForwarded(row.pendingId, answer);
  try {
    // Step 1 of the fork, always: agentctl adjudicates duplicates (AC-12g, AC-61).
    await target.respondElicitation({ pending_id: row.pendingId, ...answer });
  } catch (err) {
    if (!(err instanceof ProtocolError)) throw err;
    // No "may have been delivered" case: the stream is a pipe that loses nothing while agentctl
    // lives, and when agentctl dies its questions die with it (settled agent_disconnected).
    const verdict = verdictForRespondError(err.code);
    service.forgetForwarded(row.pendingId, answer);
    if (verdict.settle) service.settle(row.pendingId, NOT_FOUND_SETTLE.status, { by: NOT_FOUND_SETTLE.by, at: nowIso() });
    throw new HttpError(verdict.status, verdict.code, err.message, err.details);
  }
  service.forgetForwarded(row.pendingId, answer);
  // agentctl's `elicitation.settled` (reason operator) is sent before this success on the same
  // stream, so the record is usually settled already: then the settle below would only find
  // nothing to write (a transaction and a statement for nothing), and is skipped.
  const before = repo.getClarification(service.db, row.pendingId);
  const mustSettle = before === undefined || before.status === "pending" || service.hasDeferredSettle(row.pendingId);
  if (mustSettle) {
    const status = statusForOperatorAnswer(answer);
    const settled = service.settle(row.pendingId, status, operatorResolution(answer, nowIso()), (m) => withRejectReason(m, answer));
    if (settled !== undefined) return { success: true, status: settled.status };
  }
  // Settled by agentctl's event first: add what was chosen.
  const current = mustSettle ? repo.getClarification(service.db, row.pendingId)! : before;
  const enriched = withOperatorAnswers(current.resolution, answer);
  if (enriched !== null) {
    const updated = repo.updateResolution(service.db, row.pendingId, enriched)!;
    service.updateMessage(updated, (m) => withRejectReason(m, answer));
  }
  return { success: true, status: current.status };
}

function respondKandev(service: ClarificationService, row: repo.ClarificationRow, answer: ClarificationAnswer): ClarificationRespondResult {
  const problem = checkKandevAnswer(row.questions, answer);
  if (problem !== null) throw new HttpError(400, "VALIDATION_ERROR", problem, [{ path: "answers", message: problem }]);
  if (row.status === "pending" && !service.waiters.has(row.pendingId)) {
    // Pending with nobody waiting cannot be delivered (its agentctl request is gone).
    service.settle(row.pendingId, "agent_disconnected", { by: "agent_disconnected", at: nowIso() });
  }
  const settled = service.settle(row.pendingId, statusForOperatorAnswer(answer), operatorResolution(answer, nowIso()), (m) => withRejectReason(m, answer));
  if (settled === undefined) {
    const current = repo.getClarification(service.db, row.pendingId)!;
    const decided = current.status === "answered" || current.status === "declined";
    if (!decided) recordUndelivered(service, row.pendingId, answer);
    // First answer wins; a later one learns what won (or how the question ended).
    throw new HttpError(
      409,
      "CONFLICT",
      decided ? "this clarification was already answered" : `this clarification is ${current.status}; your answer was recorded but not delivered`,
      { status: current.status, resolution: current.resolution },
    );
  }
  service.waiters.resolve(row.pendingId, { text: formatKandevToolResult(row.questions, answer), answer });
  return { success: true, status: settled.status };
}

function recordUndelivered(service: ClarificationService, pendingId: string, answer: ClarificationAnswer): void {
  const row = repo.getClarification(service.db, pendingId);
  if (row !== undefined) service.updateMessage(row, (m) => withUndeliveredAnswer(m, answer, nowIso()));
}
