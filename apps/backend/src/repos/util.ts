import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";

/** Timestamps are written by the application so every row of one event shares the same clock. */
export const nowIso = (): string => new Date().toISOString();
export const newId = (): string => randomUUID();

const preparedByDb = new WeakMap<Db, Map<string, unknown>>();

/**
 * A query built and prepared once per database handle, then run with `sql.placeholder` values.
 * For the queries on every question's round trip: building a drizzle query's SQL costs far more
 * than running it (profiled by `npm run bench`: about 0.3 ms against 0.02 ms on the 2-core
 * machine, and a round trip runs about twenty of them; docs/BENCHMARKS.md). `key` names the
 * query's shape: one key, one SQL text.
 */
export function prepared<T>(db: Db, key: string, build: (db: Db) => T): T {
  let byKey = preparedByDb.get(db);
  if (byKey === undefined) preparedByDb.set(db, (byKey = new Map()));
  let query = byKey.get(key) as T | undefined;
  if (query === undefined) byKey.set(key, (query = build(db)));
  return query;
}

/**
 * A placeholder inside an update's `set()`, typed as the column's value. drizzle's set() types
 * accept only values, but at runtime set() wraps a placeholder in a Param with the column's
 * encoder, exactly as insert values() does, so JSON and boolean columns are encoded when it is
 * filled (repos.test.ts reads such rows back).
 */
export function setPlaceholder<T>(name: string): T {
  return sql.placeholder(name) as unknown as T;
}
