import { and, asc, desc, eq, lt, sql } from "drizzle-orm";
import type { MessageType } from "@kandev/protocol";
import type { Db } from "../db/client.js";
import { messages } from "../db/schema.js";
import { newId, nowIso, prepared, setPlaceholder } from "./util.js";

const ph = sql.placeholder;

export type MessageRow = Omit<typeof messages.$inferSelect, "authorType" | "type"> & {
  authorType: "user" | "agent";
  type: MessageType;
};

export interface NewMessage {
  id?: string;
  sessionId: string;
  taskId: string;
  turnId: string | null;
  authorType: "user" | "agent";
  type: MessageType;
  content: string;
  requestsInput?: boolean;
  metadata?: Record<string, unknown>;
}

export function insertMessage(db: Db, input: NewMessage): MessageRow {
  const insert = prepared(db, "messages.insert", (d) =>
    d
      .insert(messages)
      .values({
        id: ph("id"),
        sessionId: ph("sessionId"),
        taskId: ph("taskId"),
        turnId: ph("turnId"),
        authorType: ph("authorType"),
        type: ph("type"),
        content: ph("content"),
        requestsInput: ph("requestsInput"),
        metadata: ph("metadata"),
        createdAt: ph("createdAt"),
      })
      .returning()
      .prepare(),
  );
  return insert.get({
    id: input.id ?? newId(),
    sessionId: input.sessionId,
    taskId: input.taskId,
    turnId: input.turnId,
    authorType: input.authorType,
    type: input.type,
    content: input.content,
    requestsInput: input.requestsInput ?? false,
    metadata: input.metadata ?? {},
    createdAt: nowIso(),
  }) as MessageRow;
}

export function getMessage(db: Db, id: string): MessageRow | undefined {
  const select = prepared(db, "messages.get", (d) =>
    d
      .select()
      .from(messages)
      .where(eq(messages.id, ph("id")))
      .prepare(),
  );
  return select.get({ id }) as MessageRow | undefined;
}

/** A session's transcript in the order things happened. */
export function listMessages(db: Db, sessionId: string): MessageRow[] {
  return db.select().from(messages).where(eq(messages.sessionId, sessionId)).orderBy(asc(messages.seq)).all() as MessageRow[];
}

/**
 * The newest `limit` messages of a session before `beforeSeq` (all of them without it), newest
 * first: a transcript is read from its end, a page further back at a time (messages_session_idx).
 */
export function listMessagesBackwards(db: Db, sessionId: string, limit: number, beforeSeq?: number): MessageRow[] {
  const bySession = eq(messages.sessionId, sessionId);
  return db
    .select()
    .from(messages)
    .where(beforeSeq === undefined ? bySession : and(bySession, lt(messages.seq, beforeSeq)))
    .orderBy(desc(messages.seq))
    .limit(limit)
    .all() as MessageRow[];
}

/**
 * Appends text to a message in one statement (the row is not read back: it may be long, and the
 * streamed text's offsets are the live session's). False when there is no such message.
 */
export function appendContent(db: Db, id: string, text: string): boolean {
  const append = prepared(db, "messages.append", (d) =>
    d
      .update(messages)
      .set({ content: sql`${messages.content} || ${sql.placeholder("text")}` })
      .where(eq(messages.id, sql.placeholder("id")))
      .prepare(),
  );
  return append.run({ id, text }).changes > 0;
}

type MessagePatch = Partial<{ content: string; requestsInput: boolean; metadata: Record<string, unknown> }>;
const PATCHABLE = ["content", "requestsInput", "metadata"] as const;

export function updateMessage(db: Db, id: string, patch: MessagePatch): MessageRow | undefined {
  // One prepared statement per set of patched columns; undefined values are left out, as set() does.
  const keys = PATCHABLE.filter((k) => patch[k] !== undefined);
  if (keys.length === 0) return getMessage(db, id);
  const update = prepared(db, `messages.update:${keys.join(",")}`, (d) =>
    d
      .update(messages)
      .set(Object.fromEntries(keys.map((k) => [k, setPlaceholder(k)])) as MessagePatch)
      .where(eq(messages.id, ph("id")))
      .returning()
      .prepare(),
  );
  return update.get({ ...Object.fromEntries(keys.map((k) => [k, patch[k]])), id }) as MessageRow | undefined;
}

/** The request message that carries `pending_id` in its metadata (permission or clarification). */
export function findByPendingId(db: Db, sessionId: string, type: MessageType, pendingId: string): MessageRow | undefined {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.sessionId, sessionId), eq(messages.type, type), sql`json_extract(${messages.metadata}, '$.pending_id') = ${pendingId}`))
    .get() as MessageRow | undefined;
}

/**
 * `requests_input = 1` written out rather than bound: only a literal lets SQLite use the partial
 * index messages_open_idx, which holds just the open requests (a bound value scans the whole turn).
 */
const isOpenRequest = sql`${messages.requestsInput} = 1`;

/**
 * The open requests of a session, any turn, found through messages_open_idx by name: with only the
 * session given, SQLite's planner (no statistics) prefers messages_session_idx, same first column
 * and already in `seq` order, and walks every message the session ever had to find the few still
 * open. drizzle has no INDEXED BY, so the index is named in a subquery of row ids (seq is the rowid).
 */
const openOfSession = sql`${messages.seq} in (select seq from messages indexed by messages_open_idx where session_id = ${ph("sessionId")} and requests_input = 1)`;

/** Messages of a session that still request input, optionally only those of one turn. */
export function listOpenRequests(db: Db, sessionId: string, turnId?: string | null): MessageRow[] {
  const byTurn = turnId !== undefined && turnId !== null;
  const select = prepared(db, byTurn ? "messages.open:turn" : "messages.open", (d) => {
    const condition = byTurn ? and(eq(messages.sessionId, ph("sessionId")), isOpenRequest, eq(messages.turnId, ph("turnId"))) : openOfSession;
    return d.select().from(messages).where(condition).orderBy(asc(messages.seq)).prepare();
  });
  return select.all(byTurn ? { sessionId, turnId } : { sessionId }) as MessageRow[];
}

/** The text of the last prompt the operator gave a session (what "Start again" sends again). */
export function lastUserText(db: Db, sessionId: string): string | undefined {
  const row = db
    .select({ content: messages.content })
    .from(messages)
    .where(and(eq(messages.sessionId, sessionId), eq(messages.authorType, "user"), eq(messages.type, "text")))
    .orderBy(desc(messages.seq))
    .get();
  return row?.content;
}

/** The newest message of one type in a session (the current plan, for one), if any. */
export function latestOfType(db: Db, sessionId: string, type: MessageType): MessageRow | undefined {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.sessionId, sessionId), eq(messages.type, type)))
    .orderBy(desc(messages.seq))
    .get() as MessageRow | undefined;
}
