import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema.js";

/** The drizzle handle every repository function takes. */
export type Db = BetterSQLite3Database<typeof schema>;

export interface DatabaseHandle {
  db: Db;
  /** Closes the SQLite file; safe to call twice. */
  close(): void;
}

/** The repository's drizzle/ folder (generated migrations), found from this file. */
export function defaultMigrationsFolder(): string {
  return fileURLToPath(new URL("../../../../drizzle", import.meta.url));
}

/**
 * Opens (creating folder and file if needed) the SQLite database at `file`, applies every pending
 * migration and returns the drizzle handle. WAL lets readers proceed during writes; busy_timeout
 * rides out a concurrent writer (e.g. a second backend pointed at the same file) instead of failing.
 */
export function openDatabase(file: string, options: { migrationsFolder?: string } = {}): DatabaseHandle {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  try {
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("busy_timeout = 5000");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("synchronous = NORMAL");
    const db = drizzle(sqlite, { schema });
    migrate(db, { migrationsFolder: options.migrationsFolder ?? defaultMigrationsFolder() });
    let closed = false;
    return {
      db,
      close() {
        if (closed) return;
        closed = true;
        sqlite.close();
      },
    };
  } catch (err) {
    sqlite.close();
    throw err;
  }
}
