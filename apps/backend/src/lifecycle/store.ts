import type { Message, MessageAppended, MessageType, Session, Task } from "@kandev/protocol";
import type { Db } from "../db/client.js";
import { deriveTaskState, pendingActionOf } from "../domain/task-state.js";
import * as messagesRepo from "../repos/messages.js";
import * as queuedRepo from "../repos/queued-prompts.js";
import * as sessionsRepo from "../repos/sessions.js";
import * as tasksRepo from "../repos/tasks.js";
import { inTransaction } from "../repos/util.js";
import { toMessage, toSession, toTask } from "../views.js";
import type { Publisher } from "../ws/hub.js";
import { isStorageUnavailable } from "../db/errors.js";
import { RefusedWrites } from "../db/refused-writes.js";
import { silentLogger, type Logger } from "../logger.js";
import * as clarificationsRepo from "../repos/clarifications.js";
import type { ClarificationFacts } from "../clarifications/message.js";

export interface LiveStoreOptions {
  logger?: Logger;
  /** Arms the retry of refused writes (default setTimeout, unref'd). */
  schedule?: (run: () => void, ms: number) => { cancel: () => void };
}

const unrefTimer = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
};

/**
 * Writes that browsers must hear about. Every session change recomputes the task's pending action
 * (A4) and state from the latest session, and each write is pushed over /ws as it happens.
 */
export class LiveStore {
  /** While `atomically` runs: what to do once its transaction has committed, in order. */
  private afterCommitQueue: Array<() => void> | null = null;
  private readonly publisher: Publisher;
  /** Writes the database refused, retried in order (the one retry policy: db/refused-writes.ts). */
  private readonly refused: RefusedWrites;

  constructor(
    readonly db: Db,
    publisher: Publisher,
    options: LiveStoreOptions = {},
  ) {
    const logger = options.logger ?? silentLogger;
    this.refused = new RefusedWrites({
      schedule: options.schedule ?? unrefTimer,
      isRefusal: isStorageUnavailable,
      onHold: (label, err) =>
        logger.warn("the database refused a write; holding it and every later one until it takes them", { write: label, error: errorText(err) }),
      onResume: (count) => logger.info("held writes were written", { count }),
      onError: (label, err) => logger.error("a write failed", { write: label, error: err instanceof Error ? err.stack : String(err) }),
      onLost: (labels) => logger.error("writes the database never took are lost", { writes: labels }),
    });
    // Every push goes through `afterCommit`, so a write that is rolled back is never announced.
    this.publisher = {
      taskUpdated: (task) => this.afterCommit(() => publisher.taskUpdated(task)),
      sessionUpdated: (session) => this.afterCommit(() => publisher.sessionUpdated(session)),
      messageAdded: (message) => this.afterCommit(() => publisher.messageAdded(message)),
      messageUpdated: (message) => this.afterCommit(() => publisher.messageUpdated(message)),
      messageAppended: (append) => this.afterCommit(() => publisher.messageAppended(append)),
      notify: (notification) => this.afterCommit(() => publisher.notify(notification)),
    };
  }

  /**
   * Runs `fn` as one transaction: all of its writes or none. What it pushes over /ws, and what it
   * hands to `afterCommit`, happens only once the transaction has committed; if `fn` throws, nothing
   * is pushed and the error is rethrown. Nested calls join the outer transaction.
   */
  atomically<T>(fn: () => T): T {
    if (this.afterCommitQueue !== null) return fn();
    const queue: Array<() => void> = [];
    this.afterCommitQueue = queue;
    let result: T;
    try {
      result = inTransaction(this.db, fn);
    } finally {
      this.afterCommitQueue = null;
    }
    for (const effect of queue) effect();
    return result;
  }

  /**
   * A write that must not be lost (it records something that already happened: an agent event, an
   * answer the agent got, an agentctl that died): `fn` runs as one transaction, and if the database
   * refuses it, it is held and retried in order with every other such write (RefusedWrites). Inside
   * an outer transaction it simply joins it: the outer write is the one that is retried.
   * `keep`, called before each try, saves the caller's state in memory that `fn` changes; what it
   * returns puts that state back when the try's transaction did not commit (refused at commit too).
   */
  write(label: string, fn: () => void, keep?: () => () => void): "done" | "held" | "lost" {
    if (this.afterCommitQueue !== null) {
      fn();
      return "done";
    }
    return this.refused.write(label, () => {
      const putBack = keep?.();
      try {
        this.atomically(fn);
      } catch (err) {
        putBack?.();
        throw err;
      }
    });
  }

  /** Writes held ones first if the database takes them now; false while any still waits. */
  drainRefused(): boolean {
    return this.refused.drain();
  }

  /** Shutdown: the last try of held writes (RefusedWrites.close); returns those that were lost. */
  close(): string[] {
    return this.refused.close();
  }

  /** Runs `effect` now, or, inside `atomically`, once its transaction has committed. */
  afterCommit(effect: () => void): void {
    if (this.afterCommitQueue !== null) this.afterCommitQueue.push(effect);
    else effect();
  }

  taskView(taskId: string): Task | undefined {
    const row = tasksRepo.getTask(this.db, taskId);
    if (row === undefined) return undefined;
    return toTask(row, sessionsRepo.latestSessionsByTask(this.db, [taskId]).get(taskId));
  }

  /** A session as the API shows it (its queued prompts included), or undefined when unknown. */
  sessionView(id: string): Session | undefined {
    const row = sessionsRepo.getSession(this.db, id);
    return row === undefined ? undefined : this.toSessionView(row);
  }

  /** The wire shape of a session row, with its queued prompts read now. */
  toSessionView(row: sessionsRepo.SessionRow): Session {
    return toSession(row, queuedRepo.listQueuedPrompts(this.db, row.id));
  }

  /** Pushes a session whose queued prompts changed (its row did not), once the transaction is over. */
  announceSession(id: string): Session | undefined {
    const session = this.sessionView(id);
    if (session !== undefined) this.publisher.sessionUpdated(session);
    return session;
  }

  updateSession(id: string, patch: sessionsRepo.SessionPatch): Session {
    const row = sessionsRepo.updateSession(this.db, id, patch);
    if (row === undefined) throw new Error(`session ${id} vanished`);
    const session = this.toSessionView(row);
    this.publisher.sessionUpdated(session);
    this.recomputeTask(row.taskId);
    return session;
  }

  /** Re-derives the task's pending action and state from its latest session and pushes the task. */
  recomputeTask(taskId: string): Task | undefined {
    const task = this.recomputeTaskQuietly(taskId);
    if (task !== undefined) this.publisher.taskUpdated(task);
    return task;
  }

  /**
   * `recomputeTask` without the push, for a caller's own transaction (the task's state commits
   * with the write that changed it); the caller pushes the task with `announceTask` once it is over.
   */
  recomputeTaskQuietly(taskId: string): Task | undefined {
    const latest = sessionsRepo.latestSessionsByTask(this.db, [taskId]).get(taskId);
    // A clarification's status is its record's (clarifications/): its message's requests_input
    // column is not consulted, so no copy of the status has to be kept equal.
    const open = latest === undefined ? [] : messagesRepo.listOpenRequests(this.db, latest.id, latest.currentTurnId);
    const types: MessageType[] = open.map((m) => m.type).filter((t) => t !== "clarification_request");
    if (latest !== undefined && clarificationsRepo.hasPending(this.db, latest.id, latest.currentTurnId)) types.push("clarification_request");
    const pending = pendingActionOf(types);
    const row = tasksRepo.updateTaskState(this.db, taskId, deriveTaskState(latest?.state ?? null, pending), pending);
    return row === undefined ? undefined : toTask(row, latest);
  }

  /** Pushes a task recomputed inside a transaction, once that transaction is over. */
  announceTask(task: Task): void {
    this.publisher.taskUpdated(task);
  }

  addMessage(input: messagesRepo.NewMessage): Message {
    const message = toMessage(messagesRepo.insertMessage(this.db, input));
    this.publisher.messageAdded(message);
    return message;
  }

  /**
   * Pushes a message written inside a transaction, once that transaction is over; a clarification
   * message with its record (`clarification`), which owns its status.
   */
  announceAdded(row: messagesRepo.MessageRow, clarification?: ClarificationFacts): Message {
    const message = toMessage(row, clarification);
    this.publisher.messageAdded(message);
    return message;
  }

  /** Pushes a changed message (or a clarification message whose record changed), once the transaction is over. */
  announceUpdated(row: messagesRepo.MessageRow, clarification?: ClarificationFacts): Message {
    const message = toMessage(row, clarification);
    this.publisher.messageUpdated(message);
    return message;
  }

  /**
   * Streamed text on the wire: browsers get only `text` and where it goes (`session.message.appended`,
   * batched by the hub), not the whole message again, so a long reply costs its length.
   */
  announceAppend(append: MessageAppended): void {
    this.publisher.messageAppended(append);
  }

  /** Streamed text on disk: one batch appended to its message's row (Transcript decides when). */
  storeAppend(id: string, text: string): void {
    messagesRepo.appendContent(this.db, id, text);
  }

  patchMessage(id: string, patch: Partial<{ content: string; requestsInput: boolean; metadata: Record<string, unknown> }>): Message | undefined {
    const row = messagesRepo.updateMessage(this.db, id, patch);
    if (row === undefined) return undefined;
    const message = toMessage(row);
    this.publisher.messageUpdated(message);
    return message;
  }

  /**
   * Marks every still-open permission request of a session as settled (the agent or its agentctl
   * is gone, or the turn is over), so no pending action outlives the thing that could answer it.
   * Clarifications are not touched: their record owns their status (clarifications/service.ts),
   * and the callers settle them through it first.
   */
  settleOpenRequests(sessionId: string, reason: string): void {
    for (const m of messagesRepo.listOpenRequests(this.db, sessionId)) {
      if (m.type === "clarification_request") continue;
      this.patchMessage(m.id, { requestsInput: false, metadata: { ...m.metadata, status: "cancelled", reason } });
    }
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
