import type { Db } from "../db/client.js";
import { notificationSettings } from "../db/schema.js";
import { nowIso, prepared } from "./util.js";

/** Every stored setting by key (a missing key means its default). */
export function listSettings(db: Db): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  const select = prepared(db, "notificationSettings.all", (d) => d.select().from(notificationSettings).prepare());
  for (const row of select.all()) out[row.key] = row.enabled;
  return out;
}

export function setSetting(db: Db, key: string, enabled: boolean): void {
  db.insert(notificationSettings)
    .values({ key, enabled, updatedAt: nowIso() })
    .onConflictDoUpdate({ target: notificationSettings.key, set: { enabled, updatedAt: nowIso() } })
    .run();
}
