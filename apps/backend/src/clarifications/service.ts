import { randomUUID } from "node:crypto";
import {
  ProtocolError,
  type AgentEvent,
  type Clarification,
  type ClarificationAnswer,
  type ClarificationRespondResult,
  type ClarificationSource,
  type ClarificationStatus,
  type ElicitationRespondParams,
  type Features,
  type KandevAskResult,
  type Question,
  type Resolution,
} from "@kandev/protocol";
import { HttpError, notFound } from "../http/errors.js";
import type { LiveStore } from "../lifecycle/store.js";
import type { Logger } from "../logger.js";
import type { NotificationService } from "../notifications/service.js";
import * as repo from "../repos/clarifications.js";
import * as messagesRepo from "../repos/messages.js";
import { nowIso } from "../repos/util.js";
import { checkKandevAnswer, formatKandevToolResult, kandevDedupKey, kandevTimeoutText, parseKandevAsk } from "./ask-tool.js";
import { clarificationContent, storedClarificationMetadata, toClarificationView, withUndeliveredAnswer } from "./message.js";
import {
  kandevTurnEndSettle,
  operatorResolution,
  resolutionForSettledEvent,
  statusForOperatorAnswer,
  statusForSettledEvent,
  verdictForRespondError,
} from "./outcomes.js";
import { KandevWaiters } from "./waiters.js";

/** How long a ask-tool question waits for the operator unless configured otherwise. */
export const DEFAULT_KANDEV_WAIT_MS = 2 * 60 * 60_000;

/** Where a clarification comes from: one session's agentctl run (execution) and its current turn. */
export interface ClarificationContext {
  sessionId: string;
  taskId: string;
  turnId: string | null;
  executionId: string;
}

/** The live agentctl of a session, as the answer fork needs it: which run it is, and where answers go. */
export interface ElicitationTarget {
  executionId: string;
  /** Sends `agent.elicitations.respond`; rejects with agentctl's ProtocolError or NOT_CONNECTED. */
  respondElicitation(params: ElicitationRespondParams): Promise<void>;
}

export interface ClarificationServiceOptions {
  store: LiveStore;
  notifications: NotificationService;
  logger: Logger;
  /** Resolved at startup; with acpElicitation off no elicitation ever reaches the operator (AC-20). */
  features: Features;
  /** How long a ask-tool question waits (default 2 h). */
  kandevWaitMs?: number;
  /** The session's live agentctl, or undefined when it is gone. */
  liveTarget: (sessionId: string) => ElicitationTarget | undefined;
}

/**
 * The clarification store: durable records of questions from both sources, their
 * `clarification_request` messages, every way they settle, and the answer fork. A record owns its
 * status and resolution; its message shows them (message.ts). See INVARIANTS.md beside this file.
 */
export class ClarificationService {
  readonly waiters = new KandevWaiters();
  readonly kandevWaitMs: number;

  constructor(readonly options: ClarificationServiceOptions) {
    this.kandevWaitMs = options.kandevWaitMs ?? DEFAULT_KANDEV_WAIT_MS;
  }

  get db() {
    return this.options.store.db;
  }

  // ---------------------------------------------------------------------------------------------
  // Creation
  // ---------------------------------------------------------------------------------------------

  /**
   * `elicitation.requested` -> record (agentctl's pending id verbatim, no dedup: D4, AC-60) and
   * an agent-authored clarification_request message. Returns false when nothing was created.
   */
  onElicitationRequested(ctx: ClarificationContext, p: AgentEvent<"elicitation.requested">): boolean {
    const { logger } = this.options;
    if (!this.options.features.acpElicitation) {
      // agentctl was configured with the flag off and declines on its own; an event anyway means a
      // misbehaving peer, so fail closed: decline it and show the operator nothing (AC-20).
      logger.warn("elicitation.requested while features.acpElicitation is off; declining", { pending_id: p.pending_id });
      this.decline(ctx, p.pending_id);
      return false;
    }
    try {
      this.create(ctx, {
        pendingId: p.pending_id,
        source: "elicitation",
        toolCallId: p.tool_call_id,
        message: p.message,
        questions: p.questions,
        deadline: p.deadline,
        dedupKey: null,
      });
      return true;
    } catch (err) {
      if (err instanceof repo.PendingIdCollisionError) {
        logger.error("elicitation.requested reuses an existing pending id; ignored, nothing overwritten", { pending_id: p.pending_id });
        return false;
      }
      const error = err instanceof Error ? err.message : String(err);
      if (repo.getClarification(this.db, p.pending_id) !== undefined) {
        // Committed (record, message, task); only a push or the notification after it failed.
        logger.error("an elicitation was stored but what follows its commit failed", { pending_id: p.pending_id, error });
        return true;
      }
      // Not stored (the database is locked or full): nobody can see or answer this question, so
      // fail closed and decline it now rather than leave the agent waiting for its deadline.
      logger.error("could not store an elicitation; declining it", { pending_id: p.pending_id, error });
      this.decline(ctx, p.pending_id);
      return false;
    }
  }

  private decline(ctx: ClarificationContext, pendingId: string): void {
    void this.options
      .liveTarget(ctx.sessionId)
      ?.respondElicitation({ pending_id: pendingId, answers: [], rejected: true })
      .catch(() => undefined);
  }

  /**
   * A relayed `ask_user_question_kandev` call: validated (F3), deduplicated against the session's
   * pending ask-tool records (a repeat joins the same waiter), then waits for the operator.
   * Resolves with the tool result; rejects with a ProtocolError the agent sees as a tool error.
   */
  askKandev(ctx: ClarificationContext, payload: unknown): Promise<KandevAskResult> {
    const { questions } = parseKandevAsk(payload);
    const dedupKey = kandevDedupKey(ctx.sessionId, questions);
    const existing = repo.findPendingByDedupKey(this.db, ctx.sessionId, dedupKey);
    const joined = existing === undefined ? undefined : this.waiters.join(existing.pendingId);
    if (joined !== undefined) return joined;
    const pendingId = randomUUID();
    const deadline = new Date(Date.now() + this.kandevWaitMs).toISOString();
    const waiting = this.waiters.create(pendingId, this.kandevWaitMs, () => {
      this.settle(pendingId, "timed_out", { by: "deadline", at: nowIso() });
      return { text: kandevTimeoutText(this.kandevWaitMs), answer: { answers: [] } };
    });
    try {
      this.create(ctx, { pendingId, source: "kandev_tool", toolCallId: null, message: "", questions, deadline, dedupKey });
    } catch (err) {
      this.waiters.reject(pendingId, err instanceof Error ? err : new Error(String(err)));
    }
    return waiting;
  }

  /**
   * The record, its message and the task's pending action in one transaction; once it has
   * committed, the message and the task are pushed and the operator notified (F9: once per pending
   * id, because the record's primary key is that id, so a replayed request fails at the insert).
   */
  private create(
    ctx: ClarificationContext,
    input: {
      pendingId: string;
      source: ClarificationSource;
      toolCallId: string | null;
      message: string;
      questions: Question[];
      deadline: string | null;
      dedupKey: string | null;
    },
  ): void {
    const { store } = this.options;
    store.atomically(() => {
      const message = messagesRepo.insertMessage(this.db, {
        sessionId: ctx.sessionId,
        taskId: ctx.taskId,
        turnId: ctx.turnId,
        authorType: "agent",
        type: "clarification_request",
        content: clarificationContent(input.source, input.message, input.questions),
        // Whether it still requests input is its record's status, read with it (views.ts).
        requestsInput: false,
        metadata: storedClarificationMetadata(input.pendingId),
      });
      const record = repo.insertClarification(this.db, {
        ...input,
        sessionId: ctx.sessionId,
        taskId: ctx.taskId,
        turnId: ctx.turnId,
        messageId: message.id,
        executionId: ctx.executionId,
      });
      store.announceAdded(message, record);
      const task = store.recomputeTask(ctx.taskId);
      store.afterCommit(() => this.notifyQuestion(input.pendingId, ctx, task?.title));
    });
  }

  private notifyQuestion(pendingId: string, ctx: ClarificationContext, taskTitle: string | undefined): void {
    if (taskTitle === undefined) return;
    const { notifications } = this.options;
    const notification = notifications.newClarificationRequested({ pendingId, sessionId: ctx.sessionId, taskId: ctx.taskId, taskTitle });
    if (notification !== null) notifications.deliver(notification);
  }

  // ---------------------------------------------------------------------------------------------
  // The answer fork (D5): forwarded to agentctl first for an elicitation, adjudicated by the
  // record for a ask-tool question.
  // ---------------------------------------------------------------------------------------------

  /**
   * An operator's answer (`POST /api/v1/clarifications/:pendingId/respond`); throws HttpError for
   * every non-200 outcome. `user` is who answered, recorded with the outcome.
   */
  async respond(pendingId: string, answer: ClarificationAnswer, user: string): Promise<ClarificationRespondResult> {
    // A record's session exists: clarifications.session_id is a foreign key (ON DELETE CASCADE,
    // foreign_keys on at every open), so no session lookup is needed here.
    const row = repo.getClarification(this.db, pendingId);
    if (row === undefined) throw notFound(`clarification ${pendingId}`);
    switch (row.source) {
      case "elicitation":
        return this.forwardAnswer(row, answer, user);
      case "kandev_tool":
        return this.answerKandev(row, answer, user);
      default: {
        const _x: never = row.source;
        throw new Error(`unknown clarification source ${String(_x)}`);
      }
    }
  }

  /**
   * Forwards the answer to the agentctl that holds the ACP request, with no local
   * already-answered check in front (D5, AC-61): agentctl alone knows whether the request is still
   * open. Writes nothing: agentctl's `elicitation.settled`, sent before its reply on the same
   * stream and carrying this answer and user, is what records the outcome (onElicitationSettled).
   */
  private async forwardAnswer(row: repo.ClarificationRow, answer: ClarificationAnswer, user: string): Promise<ClarificationRespondResult> {
    const target = this.options.liveTarget(row.sessionId);
    if (target === undefined || target.executionId !== row.executionId) {
      // The agentctl that held the ACP request is gone, and the request with it (its end settled
      // the record: settleExecution). Keep what the operator chose so nothing answered is lost.
      this.keepUndelivered(row.pendingId, answer);
      throw new HttpError(404, "NOT_FOUND", "the agent that asked is gone; your answer was recorded on the message but not delivered");
    }
    try {
      await target.respondElicitation({ pending_id: row.pendingId, ...answer, user });
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      const verdict = verdictForRespondError(err.code);
      throw new HttpError(verdict.status, verdict.code, err.message, err.details);
    }
    return { success: true, status: statusForOperatorAnswer(answer) };
  }

  /**
   * A ask-tool answer: validated by the tool's rules (400), then the record adjudicates (first
   * answer wins, a later one is 409 with the winner) and the waiting tool call gets it.
   */
  private answerKandev(row: repo.ClarificationRow, answer: ClarificationAnswer, user: string): ClarificationRespondResult {
    const problem = checkKandevAnswer(row.questions, answer);
    if (problem !== null) throw new HttpError(400, "VALIDATION_ERROR", problem, [{ path: "answers", message: problem }]);
    // Outcomes already decided and waiting for the database go first, so this one cannot overtake them.
    this.options.store.drainRefused();
    if (row.status === "pending" && !this.waiters.has(row.pendingId)) {
      // Pending with nobody waiting cannot be delivered (its agentctl request is gone).
      this.settleNow(row.pendingId, "agent_disconnected", { by: "agent_disconnected", at: nowIso() });
    }
    const settled = this.settleNow(row.pendingId, statusForOperatorAnswer(answer), operatorResolution(answer, nowIso(), user));
    if (settled === undefined) {
      const current = repo.getClarification(this.db, row.pendingId)!;
      const decided = current.status === "answered" || current.status === "declined";
      if (!decided) this.keepUndelivered(row.pendingId, answer);
      throw new HttpError(
        409,
        "CONFLICT",
        decided ? "this clarification was already answered" : `this clarification is ${current.status}; your answer was recorded but not delivered`,
        { status: current.status, resolution: current.resolution },
      );
    }
    this.waiters.resolve(row.pendingId, { text: formatKandevToolResult(row.questions, answer), answer });
    return { success: true, status: settled.status };
  }

  /** An answer that came after its asker was gone, kept on the message (the one fact the message owns). */
  private keepUndelivered(pendingId: string, answer: ClarificationAnswer): void {
    const at = nowIso();
    const { store } = this.options;
    store.write(`undelivered answer ${pendingId}`, () => {
      const row = repo.getClarification(this.db, pendingId);
      const message = row === undefined ? undefined : messagesRepo.getMessage(this.db, row.messageId);
      if (row === undefined || message === undefined) return;
      const updated = messagesRepo.updateMessage(this.db, message.id, { metadata: withUndeliveredAnswer(message.metadata, answer, at) });
      if (updated !== undefined) store.announceUpdated(updated, row);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Settling (F7)
  // ---------------------------------------------------------------------------------------------

  /**
   * agentctl settled an elicitation: the operator's answer (the event carries it and who gave it),
   * its deadline, the agent's cancel, a turn cancel, a shutdown. This event is the one place an
   * elicitation's outcome is recorded. It runs inside the event's own write (LiveSession), so a
   * database that refuses it holds the whole event, in order with the session's others.
   */
  onElicitationSettled(ctx: ClarificationContext, p: AgentEvent<"elicitation.settled">): void {
    const row = repo.getClarification(this.db, p.pending_id);
    if (row === undefined || row.source !== "elicitation" || row.executionId !== ctx.executionId) {
      this.options.logger.warn("elicitation.settled for an unknown pending id", { pending_id: p.pending_id });
      return;
    }
    this.settleNow(p.pending_id, statusForSettledEvent(p.outcome, p.reason), resolutionForSettledEvent(p, nowIso()));
  }

  /**
   * Settles a pending record and recomputes its task in one transaction, then pushes the message
   * (its view reads the record) and the task. The first settle wins: returns undefined when the
   * record was not pending. Throws what the database throws (inside an outer write, that write is
   * the one retried).
   */
  private settleNow(pendingId: string, status: ClarificationStatus, resolution: Resolution): repo.ClarificationRow | undefined {
    const { store } = this.options;
    return store.atomically(() => {
      const row = repo.settleClarification(this.db, pendingId, status, resolution);
      if (row === undefined) return undefined;
      const message = messagesRepo.getMessage(this.db, row.messageId);
      if (message !== undefined) store.announceUpdated(message, row);
      store.recomputeTask(row.taskId);
      return row;
    });
  }

  /**
   * A settle the board decides itself (asker gone, deadline, turn over): it already happened, so
   * it must not be lost to a database that refuses it; it goes through the one retry mechanism.
   */
  private settle(pendingId: string, status: ClarificationStatus, resolution: Resolution): void {
    this.options.store.write(`settle ${pendingId} ${status}`, () => void this.settleNow(pendingId, status, resolution));
  }

  /**
   * The execution's agentctl (or its agent) is gone: every live record it held, of both sources,
   * becomes agent_disconnected and ask-tool waiters end with an error. Returns how many.
   */
  settleExecution(executionId: string, by = "agent_disconnected"): number {
    return this.settleAll(repo.listPending(this.db, { executionId }), "agent_disconnected", by);
  }

  /**
   * A turn ended: its ask-tool questions were abandoned by agentctl (the tool call is over).
   * Elicitations are left to agentctl, which settles them itself and reports it (F7).
   */
  onTurnEnded(sessionId: string, turnId: string, stopReason: string): number {
    const { status, by } = kandevTurnEndSettle(stopReason);
    return this.settleAll(repo.listPending(this.db, { sessionId, turnId, source: "kandev_tool" }), status, by);
  }

  /**
   * Startup: nothing is live yet, so every record a previous run left pending lost its asker.
   * Answered records are untouched, so no recorded answer is lost.
   */
  reconcileLeftovers(): number {
    return this.settleAll(repo.listPending(this.db, {}), "agent_disconnected", "backend_restarted");
  }

  /** Backend shutdown: waiters end (the stream is closing anyway); rows stay for the next start. */
  shutdown(): void {
    this.waiters.rejectAll(new ProtocolError("NOT_CONNECTED", "the board is shutting down"));
  }

  private settleAll(rows: repo.ClarificationRow[], status: ClarificationStatus, by: string): number {
    for (const row of rows) {
      this.settle(row.pendingId, status, { by, at: nowIso() });
      this.waiters.reject(row.pendingId, new ProtocolError("NOT_CONNECTED", `the question was withdrawn (${by})`));
    }
    return rows.length;
  }

  // ---------------------------------------------------------------------------------------------
  // Views
  // ---------------------------------------------------------------------------------------------

  get(pendingId: string): Clarification | undefined {
    const row = repo.getClarification(this.db, pendingId);
    return row === undefined ? undefined : toClarificationView(row);
  }

  list(filter: { sessionId?: string; status?: ClarificationStatus }): Clarification[] {
    return repo.listClarifications(this.db, filter).map(toClarificationView);
  }
}
