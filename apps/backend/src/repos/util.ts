import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type Database from "better-sqlite3";
import type { Db } from "../db/client.js";

/** Timestamps are written by the application so every row of one event shares the same clock. */
export const nowIso = (): string => new Date().toISOString();
export const newId = (): string => randomUUID();

const preparedByDb = new WeakMap<Db, Map<string, unknown>>();

/**
 * A query built and prepared once per database handle, then run with `sql.placeholder` values.
 * For the queries on every question's round trip: building a drizzle query's SQL costs far more
 * than running it (`select ... from tasks where id = ?` 320 µs through the builder, 19.5 µs
 * prepared once, on the 2-core machine; a round trip runs about twenty). Speed code, so its figure
 * (STYLE.md rule 19): it cut the backend's CPU per question round trip from 11.5 and 13.1 ms to 4.9
 * and 4.3 ms, about 2.5x, same conditions (`npm run bench`, 5 sessions; landed with 06584de, whose
 * analysis note is in `git log -- docs/benchmarks`). `key` names the query's shape: one key, one SQL text. drizzle fills its parameters and
 * maps its rows as for any prepared query.
 */
export function prepared<T>(db: Db, key: string, build: (db: Db) => T): T {
  let byKey = preparedByDb.get(db);
  if (byKey === undefined) {
    byKey = new Map();
    preparedByDb.set(db, byKey);
  }
  let query = byKey.get(key) as T | undefined;
  if (query === undefined) {
    query = build(db);
    byKey.set(key, query);
  }
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

const runners = new WeakMap<Db, (fn: () => unknown) => unknown>();

/**
 * `db.transaction(() => fn())` for callers that do not use drizzle's transaction object (they write
 * through `db` itself): BEGIN DEFERRED ... COMMIT, a SAVEPOINT when already inside a transaction,
 * rolled back if `fn` throws. The same better-sqlite3 transaction drizzle runs, minus what drizzle
 * and better-sqlite3 build on every call (a transaction object with a query builder per table,
 * four wrapper functions): built once per database handle here, since a round trip runs several.
 */
export function inTransaction<T>(db: Db, fn: () => T): T {
  let run = runners.get(db);
  if (run === undefined) {
    // drizzle keeps the better-sqlite3 handle as $client (not in the Db type).
    const sqlite = (db as unknown as { $client: Database.Database }).$client;
    run = sqlite.transaction((body: () => unknown) => body()).deferred;
    runners.set(db, run);
  }
  return run(fn) as T;
}
