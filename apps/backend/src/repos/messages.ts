import { and, asc, eq, sql } from "drizzle-orm";
import type { MessageType } from "@kandev/protocol";
import type { Db } from "../db/client.js";
import { messages } from "../db/schema.js";
import { newId, nowIso } from "./util.js";

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
  return db
    .insert(messages)
    .values({
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
    })
    .returning()
    .get() as MessageRow;
}

export function getMessage(db: Db, id: string): MessageRow | undefined {
  return db.select().from(messages).where(eq(messages.id, id)).get() as MessageRow | undefined;
}

/** A session's transcript in the order things happened. */
export function listMessages(db: Db, sessionId: string): MessageRow[] {
  return db.select().from(messages).where(eq(messages.sessionId, sessionId)).orderBy(asc(messages.seq)).all() as MessageRow[];
}

/** Appends text to a message in one statement, so a burst of chunks never loses one to a race. */
export function appendContent(db: Db, id: string, text: string): MessageRow | undefined {
  return db
    .update(messages)
    .set({ content: sql`${messages.content} || ${text}` })
    .where(eq(messages.id, id))
    .returning()
    .get() as MessageRow | undefined;
}

export function updateMessage(
  db: Db,
  id: string,
  patch: Partial<{ content: string; requestsInput: boolean; metadata: Record<string, unknown> }>,
): MessageRow | undefined {
  return db.update(messages).set(patch).where(eq(messages.id, id)).returning().get() as MessageRow | undefined;
}

/** The request message that carries `pending_id` in its metadata (permission or clarification). */
export function findByPendingId(db: Db, sessionId: string, type: MessageType, pendingId: string): MessageRow | undefined {
  return db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.sessionId, sessionId),
        eq(messages.type, type),
        sql`json_extract(${messages.metadata}, '$.pending_id') = ${pendingId}`,
      ),
    )
    .get() as MessageRow | undefined;
}

/** Messages of a session that still request input, optionally only those of one turn. */
export function listOpenRequests(db: Db, sessionId: string, turnId?: string | null): MessageRow[] {
  const conditions = [eq(messages.sessionId, sessionId), eq(messages.requestsInput, true)];
  if (turnId !== undefined && turnId !== null) conditions.push(eq(messages.turnId, turnId));
  return db.select().from(messages).where(and(...conditions)).orderBy(asc(messages.seq)).all() as MessageRow[];
}
