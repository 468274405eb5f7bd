import type { Db } from "../db/client.js";
import { notificationDeliveries } from "../db/schema.js";
import { newId, nowIso, prepared } from "./util.js";
import { sql } from "drizzle-orm";

/**
 * Records that a notification of `kind` for `dedupKey` goes out. Returns false when one already
 * did: the unique (kind, dedup_key) index makes "notify at most once" hold across retries and restarts.
 */
export function claimDelivery(db: Db, input: { kind: string; dedupKey: string; taskId: string; sessionId: string }): boolean {
  const ph = sql.placeholder;
  const insert = prepared(db, "notificationDeliveries.claim", (d) =>
    d
      .insert(notificationDeliveries)
      .values({
        id: ph("id"),
        kind: ph("kind"),
        dedupKey: ph("dedupKey"),
        taskId: ph("taskId"),
        sessionId: ph("sessionId"),
        createdAt: ph("createdAt"),
      })
      .onConflictDoNothing()
      .returning({ id: notificationDeliveries.id })
      .prepare(),
  );
  const row = insert.get({
    id: newId(),
    kind: input.kind,
    dedupKey: input.dedupKey,
    taskId: input.taskId,
    sessionId: input.sessionId,
    createdAt: nowIso(),
  });
  return row !== undefined;
}
