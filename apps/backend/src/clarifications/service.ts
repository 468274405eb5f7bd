import { randomUUID } from "node:crypto";
import {
  ProtocolError,
  type AgentEvent,
  type Clarification,
  type ClarificationAnswer,
  type ClarificationSource,
  type ClarificationStatus,
  type ElicitationRespondParams,
  type Features,
  type KandevAskResult,
  type Question,
  type Resolution,
  type Task,
} from "@kandev/protocol";
import type { LiveStore } from "../lifecycle/store.js";
import type { Logger } from "../logger.js";
import type { NotificationService } from "../notifications/service.js";
import * as repo from "../repos/clarifications.js";
import * as messagesRepo from "../repos/messages.js";
import { inTransaction, newId, nowIso } from "../repos/util.js";
import { kandevDedupKey, kandevTimeoutText, parseKandevAsk } from "./kandev-tool.js";
import { clarificationContent, clarificationMetadata, toClarificationView, withRejectReason } from "./message.js";
import { kandevTurnEndSettle, operatorBy, operatorResolution, statusForSettledEvent } from "./outcomes.js";
import { KandevWaiters } from "./waiters.js";
import { DeferredSettles } from "./deferred-settles.js";
import { FollowUps, type FollowUp } from "./follow-ups.js";
import { isStorageUnavailable } from "../db/errors.js";

/** How long a kandev-tool question waits for the operator unless configured otherwise. */
export const DEFAULT_KANDEV_WAIT_MS = 2 * 60 * 60_000;

/** Where a clarification comes from: one session's agentctl run (execution) and its current turn. */
export interface ClarificationContext {
  sessionId: string;
  taskId: string;
  turnId: string | null;
  executionId: string;
}

/** The live agentctl of a session, as the answer fork needs it. */
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
  /** How long a kandev-tool question waits (default 2 h). */
  kandevWaitMs?: number;
  /** The session's live agentctl, or undefined when it is gone. */
  liveTarget: (sessionId: string) => ElicitationTarget | undefined;
}

/**
 * The clarification store: durable records of questions from both sources, their
 * `clarification_request` messages, and every way they settle. The answer fork lives in
 * respond.ts. See INVARIANTS.md beside this file.
 */
export class ClarificationService {
  readonly waiters = new KandevWaiters();
  readonly kandevWaitMs: number;
  /** Tasks' recomputes after a question's or a settle's push, and new questions' notifications (follow-ups.ts). */
  private readonly followUps: FollowUps;
  /** Settles the database could not take yet (locked, full), written once it can. */
  private readonly deferred: DeferredSettles;
  /**
   * Answers forwarded to agentctl and not yet given a verdict, per pending id, in sending order
   * (the order agentctl handles them). agentctl announces an operator settle before answering the
   * winning request, after answering every earlier one, so the head of the list is the winner
   * when that event arrives. It carries no answers of its own; they come from here, which also
   * covers an answer whose success never came back because the stream dropped after it left.
   */
  private readonly forwarded = new Map<string, ClarificationAnswer[]>();

  constructor(readonly options: ClarificationServiceOptions) {
    this.kandevWaitMs = options.kandevWaitMs ?? DEFAULT_KANDEV_WAIT_MS;
    const { store, logger } = options;
    this.followUps = new FollowUps({
      recompute: (taskIds) => inTransaction(this.db, () => taskIds.flatMap((id) => store.recomputeTaskQuietly(id) ?? [])),
      announce: (task) => store.announceTask(task),
      notify: (f, task) => this.notifyQuestion(f, task),
      logger,
    });
    this.deferred = new DeferredSettles({
      apply: (pendingId, s) => void this.settleNow(pendingId, s.status, s.resolution, s.extra),
      logger: options.logger,
    });
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
      void this.options
        .liveTarget(ctx.sessionId)
        ?.respondElicitation({ pending_id: p.pending_id, answers: [], rejected: true })
        .catch(() => undefined);
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
        // Stored (with the task's state and the notification's claim); only pushing it failed.
        logger.error("an elicitation was stored but its follow-up failed", { pending_id: p.pending_id, error });
        return true;
      }
      // Not stored (the database is locked or full): nobody can see or answer this question, so
      // fail closed and decline it now rather than leave the agent waiting for its deadline.
      logger.error("could not store an elicitation; declining it", { pending_id: p.pending_id, error });
      void this.options
        .liveTarget(ctx.sessionId)
        ?.respondElicitation({ pending_id: p.pending_id, answers: [], rejected: true })
        .catch(() => undefined);
      return false;
    }
  }

  /**
   * A relayed `ask_user_question_kandev` call: validated (F3), deduplicated against the session's
   * pending kandev-tool records (a repeat joins the same waiter), then waits for the operator.
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

  private create(
    ctx: ClarificationContext,
    input: { pendingId: string; source: ClarificationSource; toolCallId: string | null; message: string; questions: Question[]; deadline: string | null; dedupKey: string | null },
  ): void {
    const { store } = this.options;
    const facts = { ...input, sessionId: ctx.sessionId, taskId: ctx.taskId, status: "pending" as const, resolution: null };
    const messageId = newId();
    // The record and its message in one transaction, one commit, then the message's push. The
    // task's pending action and the notification follow on the next turn (follow-ups.ts).
    const row = inTransaction(this.db, () => {
      const message = messagesRepo.insertMessage(this.db, {
        id: messageId,
        sessionId: ctx.sessionId,
        taskId: ctx.taskId,
        turnId: ctx.turnId,
        authorType: "agent",
        type: "clarification_request",
        content: clarificationContent(input.source, input.message, input.questions),
        requestsInput: true,
        metadata: clarificationMetadata(facts),
      });
      repo.insertClarification(this.db, {
        ...input,
        sessionId: ctx.sessionId,
        taskId: ctx.taskId,
        turnId: ctx.turnId,
        messageId,
        executionId: ctx.executionId,
      });
      return message;
    });
    store.announceAdded(row);
    this.followUps.add({ pendingId: input.pendingId, sessionId: ctx.sessionId, taskId: ctx.taskId });
  }

  /**
   * A new question's notification, once its task is recomputed (none for a question settled by
   * then: FollowUps.settled). The insert of its record is F9's once per pending id (its primary
   * key), so the notification needs no claim.
   */
  private notifyQuestion(f: FollowUp, recomputed: Task | undefined): void {
    const task = recomputed ?? this.options.store.taskView(f.taskId);
    if (task === undefined) return;
    const { notifications } = this.options;
    const notification = notifications.newClarificationRequested({ pendingId: f.pendingId, sessionId: f.sessionId, taskId: f.taskId, taskTitle: task.title });
    if (notification !== null) notifications.deliver(notification);
  }

  // ---------------------------------------------------------------------------------------------
  // Settling (F7)
  // ---------------------------------------------------------------------------------------------

  /**
   * Settles a pending record and mirrors it on its message (status, resolution, no longer
   * requesting input), pushes the message and recomputes the task. The first settle wins: returns
   * undefined when the record was not pending. `extraMetadata` adds answer-path keys to the message.
   */
  settle(
    pendingId: string,
    status: ClarificationStatus,
    resolution: Resolution,
    extraMetadata: (meta: Record<string, unknown>) => Record<string, unknown> = (m) => m,
  ): repo.ClarificationRow | undefined {
    const waiting = this.deferred.get(pendingId);
    if (waiting !== undefined) {
      // Already decided, waiting for the database: the first settle wins (it may gain the answers).
      // The same outcome asked again (agentctl's event, then the answer's success) reads as done.
      const amended = this.deferred.amend(pendingId, status, resolution, extraMetadata);
      if (!amended && (waiting.status !== status || waiting.resolution.by !== resolution.by)) return undefined;
      const row = repo.getClarification(this.db, pendingId);
      const decided = this.deferred.get(pendingId)!;
      return row === undefined ? undefined : { ...row, status: decided.status, resolution: decided.resolution };
    }
    try {
      return this.settleNow(pendingId, status, resolution, extraMetadata);
    } catch (err) {
      if (!isStorageUnavailable(err)) throw err;
      // The outcome already happened (e.g. the agent got the answer); losing it here would leave a
      // pending record nobody can answer. Keep it and write it once the database is back.
      const row = repo.getClarification(this.db, pendingId);
      if (row === undefined || row.status !== "pending") return undefined;
      this.options.logger.error("could not record how a clarification ended; will retry", {
        pending_id: pendingId,
        status,
        error: err instanceof Error ? err.message : String(err),
      });
      this.deferred.defer(pendingId, { status, resolution, extra: extraMetadata });
      this.followUps.settled(pendingId);
      return { ...row, status, resolution };
    }
  }

  /** Whether a settle of this record waits for the database (see `deferred`). */
  hasDeferredSettle(pendingId: string): boolean {
    return this.deferred.get(pendingId) !== undefined;
  }

  private settleNow(
    pendingId: string,
    status: ClarificationStatus,
    resolution: Resolution,
    extraMetadata: (meta: Record<string, unknown>) => Record<string, unknown>,
  ): repo.ClarificationRow | undefined {
    // Record and message in one transaction: both or, if the database refuses, neither (then
    // `settle` defers the whole settle). The task's pending action follows on the next turn, as a
    // new question's does (follow-ups.ts), so it never holds the agent's next question.
    const result = inTransaction(this.db, () => {
      const row = repo.settleClarification(this.db, pendingId, status, resolution);
      if (row === undefined) return undefined;
      return { row, message: this.rewriteMessage(row, extraMetadata) };
    });
    if (result === undefined) return undefined;
    this.followUps.settled(pendingId);
    this.followUps.task(result.row.taskId);
    this.forwarded.delete(pendingId);
    if (result.message !== undefined) this.options.store.announceUpdated(result.message);
    return result.row;
  }

  /** Rewrites the message of a (settled) record from the record plus `extra` metadata; pushes it. */
  updateMessage(row: repo.ClarificationRow, extra: (meta: Record<string, unknown>) => Record<string, unknown>): void {
    const message = this.rewriteMessage(row, extra);
    if (message !== undefined) this.options.store.announceUpdated(message);
  }

  private rewriteMessage(row: repo.ClarificationRow, extra: (meta: Record<string, unknown>) => Record<string, unknown>): messagesRepo.MessageRow | undefined {
    const current = messagesRepo.getMessage(this.db, row.messageId);
    if (current === undefined) return undefined;
    const metadata = extra(clarificationMetadata(row, current.metadata));
    return messagesRepo.updateMessage(this.db, row.messageId, { requestsInput: row.status === "pending", metadata });
  }

  /** agentctl settled an elicitation on its own (deadline, agent cancel, turn cancel, shutdown...). */
  onElicitationSettled(ctx: ClarificationContext, p: AgentEvent<"elicitation.settled">): void {
    const row = repo.getClarification(this.db, p.pending_id);
    if (row === undefined || row.source !== "elicitation" || row.executionId !== ctx.executionId) {
      this.options.logger.warn("elicitation.settled for an unknown pending id", { pending_id: p.pending_id });
      return;
    }
    const at = nowIso();
    const sent = this.forwarded.get(p.pending_id)?.[0];
    if (sent !== undefined && operatorBy(sent) === p.reason) {
      // The operator's answer settled it: record what was chosen (it may have been sent just before
      // the stream dropped, so the respond request never heard the success).
      this.settle(p.pending_id, statusForSettledEvent(p.outcome, p.reason), operatorResolution(sent, at), (m) => withRejectReason(m, sent));
      return;
    }
    this.settle(p.pending_id, statusForSettledEvent(p.outcome, p.reason), { by: p.reason, at });
  }

  /** respond.ts: `answer` is about to be forwarded to agentctl (see `forwarded`). */
  noteForwarded(pendingId: string, answer: ClarificationAnswer): void {
    const list = this.forwarded.get(pendingId);
    if (list === undefined) this.forwarded.set(pendingId, [answer]);
    else list.push(answer);
  }

  /** respond.ts: agentctl gave its verdict on this forwarded `answer`. */
  forgetForwarded(pendingId: string, answer: ClarificationAnswer): void {
    const list = this.forwarded.get(pendingId);
    if (list === undefined) return;
    const i = list.indexOf(answer);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.forwarded.delete(pendingId);
  }

  /**
   * The execution's agentctl (or its agent) is gone: every live record it held, of both sources,
   * becomes agent_disconnected and kandev-tool waiters end with an error. Returns how many.
   */
  settleExecution(executionId: string, by = "agent_disconnected"): number {
    return this.settleAll(repo.listPending(this.db, { executionId }), "agent_disconnected", by);
  }

  /**
   * A turn ended: its kandev-tool questions were abandoned by agentctl (the tool call is over).
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
    // Deferred settles first: each one written queues its task's recompute, which close() runs.
    this.deferred.flush();
    this.followUps.close();
    this.deferred.close();
  }

  private settleAll(rows: repo.ClarificationRow[], status: ClarificationStatus, by: string): number {
    let n = 0;
    for (const row of rows) {
      if (this.settle(row.pendingId, status, { by, at: nowIso() }) === undefined) continue;
      n++;
      this.waiters.reject(row.pendingId, new ProtocolError("NOT_CONNECTED", `the question was withdrawn (${by})`));
    }
    return n;
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
