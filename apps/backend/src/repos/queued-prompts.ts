import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { queuedPrompts } from "../db/schema.js";
import { newId, nowIso, prepared } from "./util.js";

export type QueuedPromptRow = typeof queuedPrompts.$inferSelect;

export function insertQueuedPrompt(db: Db, input: { sessionId: string; text: string; user?: string }): QueuedPromptRow {
  return db
    .insert(queuedPrompts)
    .values({ id: newId(), sessionId: input.sessionId, text: input.text, user: input.user ?? null, createdAt: nowIso() })
    .returning()
    .get();
}

/**
 * A session's queued prompts in the order they will be sent: the ones the operator asked to send
 * now first, then by arrival. Read on every session push, so prepared once.
 */
export function listQueuedPrompts(db: Db, sessionId: string): QueuedPromptRow[] {
  const select = prepared(db, "queued_prompts.list", (d) =>
    d
      .select()
      .from(queuedPrompts)
      .where(eq(queuedPrompts.sessionId, sql.placeholder("sessionId")))
      .orderBy(desc(queuedPrompts.sendNow), asc(queuedPrompts.seq))
      .prepare(),
  );
  return select.all({ sessionId });
}

export function getQueuedPrompt(db: Db, sessionId: string, id: string): QueuedPromptRow | undefined {
  return db
    .select()
    .from(queuedPrompts)
    .where(and(eq(queuedPrompts.sessionId, sessionId), eq(queuedPrompts.id, id)))
    .get();
}

/** Removes one queued prompt; false when it was not (or no longer) queued. */
export function deleteQueuedPrompt(db: Db, sessionId: string, id: string): boolean {
  const gone = db
    .delete(queuedPrompts)
    .where(and(eq(queuedPrompts.sessionId, sessionId), eq(queuedPrompts.id, id)))
    .returning({ id: queuedPrompts.id })
    .all();
  return gone.length > 0;
}

export function markSendNow(db: Db, sessionId: string, id: string): boolean {
  const marked = db
    .update(queuedPrompts)
    .set({ sendNow: true })
    .where(and(eq(queuedPrompts.sessionId, sessionId), eq(queuedPrompts.id, id)))
    .returning({ id: queuedPrompts.id })
    .all();
  return marked.length > 0;
}
