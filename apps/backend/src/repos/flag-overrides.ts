import { eq } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { runtimeFlagOverrides } from "../db/schema.js";
import { nowIso } from "./util.js";

/** Every stored override by key (keys the registry no longer knows are returned too; callers filter). */
export function listOverrides(db: Db): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const row of db.select().from(runtimeFlagOverrides).all()) out[row.key] = row.value;
  return out;
}

/** Stores an override, or clears it when `value` is null. */
export function setOverride(db: Db, key: string, value: boolean | null): void {
  if (value === null) {
    db.delete(runtimeFlagOverrides).where(eq(runtimeFlagOverrides.key, key)).run();
    return;
  }
  db.insert(runtimeFlagOverrides)
    .values({ key, value, updatedAt: nowIso() })
    .onConflictDoUpdate({ target: runtimeFlagOverrides.key, set: { value, updatedAt: nowIso() } })
    .run();
}
