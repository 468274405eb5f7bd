import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { turns } from "../db/schema.js";
import { newId, nowIso } from "./util.js";

export type TurnRow = typeof turns.$inferSelect;

export function insertTurn(db: Db, input: { sessionId: string; id?: string }): TurnRow {
  return db
    .insert(turns)
    .values({ id: input.id ?? newId(), sessionId: input.sessionId, startedAt: nowIso() })
    .returning()
    .get();
}

export function getTurn(db: Db, id: string): TurnRow | undefined {
  return db.select().from(turns).where(eq(turns.id, id)).get();
}

/** Ends a turn once; returns undefined when it had already ended (a duplicate or late event). */
export function endTurn(db: Db, id: string, input: { stopReason: string; error?: string | null }): TurnRow | undefined {
  return db
    .update(turns)
    .set({ endedAt: nowIso(), stopReason: input.stopReason, error: input.error ?? null })
    .where(and(eq(turns.id, id), isNull(turns.endedAt)))
    .returning()
    .get();
}
