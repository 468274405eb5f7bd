import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { ClarificationSource, ClarificationStatus, Question, Resolution } from "@kandev/protocol";
import type { Db } from "../db/client.js";
import { clarifications } from "../db/schema.js";
import { nowIso, prepared, setPlaceholder } from "./util.js";

const ph = sql.placeholder;

export type ClarificationRow = Omit<typeof clarifications.$inferSelect, "source" | "status" | "questions" | "resolution"> & {
  source: ClarificationSource;
  status: ClarificationStatus;
  questions: Question[];
  resolution: Resolution | null;
};

export interface NewClarification {
  pendingId: string;
  sessionId: string;
  taskId: string;
  turnId: string | null;
  messageId: string;
  source: ClarificationSource;
  executionId: string | null;
  toolCallId: string | null;
  message: string;
  questions: Question[];
  deadline: string | null;
  dedupKey: string | null;
}

/** A caller-supplied pending id that already exists: an error, never an overwrite (AC-60). */
export class PendingIdCollisionError extends Error {
  constructor(readonly pendingId: string) {
    super(`a clarification with pending id ${pendingId} already exists`);
    this.name = "PendingIdCollisionError";
  }
}

/** Inserts a pending record; throws PendingIdCollisionError when the id is taken. */
export function insertClarification(db: Db, input: NewClarification): ClarificationRow {
  const at = nowIso();
  const insert = prepared(db, "clarifications.insert", (d) =>
    d
      .insert(clarifications)
      .values({
        pendingId: ph("pendingId"),
        sessionId: ph("sessionId"),
        taskId: ph("taskId"),
        turnId: ph("turnId"),
        messageId: ph("messageId"),
        source: ph("source"),
        executionId: ph("executionId"),
        toolCallId: ph("toolCallId"),
        message: ph("message"),
        questions: ph("questions"),
        deadline: ph("deadline"),
        dedupKey: ph("dedupKey"),
        status: "pending",
        resolution: null,
        createdAt: ph("at"),
        updatedAt: ph("at"),
      })
      .onConflictDoNothing({ target: clarifications.pendingId })
      .returning()
      .prepare(),
  );
  const { pendingId, sessionId, taskId, turnId, messageId, source, executionId, toolCallId, message, questions, deadline, dedupKey } = input;
  const row = insert.get({
    pendingId,
    sessionId,
    taskId,
    turnId,
    messageId,
    source,
    executionId,
    toolCallId,
    message,
    questions,
    deadline,
    dedupKey,
    at,
  });
  if (row === undefined) throw new PendingIdCollisionError(input.pendingId);
  return row as ClarificationRow;
}

export function getClarification(db: Db, pendingId: string): ClarificationRow | undefined {
  const select = prepared(db, "clarifications.get", (d) =>
    d
      .select()
      .from(clarifications)
      .where(eq(clarifications.pendingId, ph("pendingId")))
      .prepare(),
  );
  return select.get({ pendingId }) as ClarificationRow | undefined;
}

/** Oldest first, optionally filtered by session and status. */
export function listClarifications(db: Db, filter: { sessionId?: string; status?: ClarificationStatus } = {}): ClarificationRow[] {
  const conditions: SQL[] = [];
  if (filter.sessionId !== undefined) conditions.push(eq(clarifications.sessionId, filter.sessionId));
  if (filter.status !== undefined) conditions.push(eq(clarifications.status, filter.status));
  return db
    .select()
    .from(clarifications)
    .where(and(...conditions))
    .orderBy(asc(clarifications.createdAt), asc(sql`${clarifications}.rowid`))
    .all() as ClarificationRow[];
}

/** The still-pending ask-tool record of a session with these questions (the dedup of D4). */
export function findPendingByDedupKey(db: Db, sessionId: string, dedupKey: string): ClarificationRow | undefined {
  return db
    .select()
    .from(clarifications)
    .where(
      and(
        eq(clarifications.sessionId, sessionId),
        eq(clarifications.dedupKey, dedupKey),
        eq(clarifications.source, "kandev_tool"),
        eq(clarifications.status, "pending"),
      ),
    )
    .get() as ClarificationRow | undefined;
}

/** Pending records matching every given field. */
export function listPending(
  db: Db,
  where: { executionId?: string; sessionId?: string; turnId?: string; source?: ClarificationSource },
): ClarificationRow[] {
  const conditions: SQL[] = [eq(clarifications.status, "pending")];
  if (where.executionId !== undefined) conditions.push(eq(clarifications.executionId, where.executionId));
  if (where.sessionId !== undefined) conditions.push(eq(clarifications.sessionId, where.sessionId));
  if (where.turnId !== undefined) conditions.push(eq(clarifications.turnId, where.turnId));
  if (where.source !== undefined) conditions.push(eq(clarifications.source, where.source));
  return db
    .select()
    .from(clarifications)
    .where(and(...conditions))
    .orderBy(asc(sql`${clarifications}.rowid`))
    .all() as ClarificationRow[];
}

/**
 * Whether a session has a pending clarification, in `turnId` when given (a task's pending action
 * looks at its session's current turn). Through clarifications_session_status_idx.
 */
export function hasPending(db: Db, sessionId: string, turnId: string | null): boolean {
  const byTurn = turnId !== null;
  const select = prepared(db, byTurn ? "clarifications.pending:turn" : "clarifications.pending", (d) => {
    const base = and(eq(clarifications.sessionId, ph("sessionId")), eq(clarifications.status, "pending"));
    const condition = byTurn ? and(base, eq(clarifications.turnId, ph("turnId"))) : base;
    return d.select({ pendingId: clarifications.pendingId }).from(clarifications).where(condition).limit(1).prepare();
  });
  return select.get(byTurn ? { sessionId, turnId } : { sessionId }) !== undefined;
}

/**
 * Moves a pending record to `status` once. Returns the settled row, or undefined when it was no
 * longer pending: the first settle wins, whatever races after it.
 */
export function settleClarification(db: Db, pendingId: string, status: ClarificationStatus, resolution: Resolution): ClarificationRow | undefined {
  const update = prepared(db, "clarifications.settle", (d) =>
    d
      .update(clarifications)
      .set({
        status: setPlaceholder<ClarificationStatus>("status"),
        resolution: setPlaceholder<Resolution>("resolution"),
        updatedAt: setPlaceholder<string>("at"),
      })
      .where(and(eq(clarifications.pendingId, ph("pendingId")), eq(clarifications.status, "pending")))
      .returning()
      .prepare(),
  );
  return update.get({ pendingId, status, resolution, at: nowIso() }) as ClarificationRow | undefined;
}
