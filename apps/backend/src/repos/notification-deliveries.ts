import type { Db } from "../db/client.js";
import { notificationDeliveries } from "../db/schema.js";
import { newId, nowIso } from "./util.js";

/**
 * Records that a notification of `kind` for `dedupKey` goes out. Returns false when one already
 * did: the unique (kind, dedup_key) index makes "notify at most once" hold across retries and restarts.
 */
export function claimDelivery(
  db: Db,
  input: { kind: string; dedupKey: string; taskId: string; sessionId: string },
): boolean {
  const row = db
    .insert(notificationDeliveries)
    .values({ id: newId(), kind: input.kind, dedupKey: input.dedupKey, taskId: input.taskId, sessionId: input.sessionId, createdAt: nowIso() })
    .onConflictDoNothing()
    .returning({ id: notificationDeliveries.id })
    .get();
  return row !== undefined;
}
