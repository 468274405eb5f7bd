import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema.js";

/** How long a write waits for another connection's lock before failing (see openDatabase). */
export const BUSY_TIMEOUT_MS = 1000;

/**
 * The most a WAL file keeps on disk once it starts over. SQLite's own automatic checkpoint (every
 * 1,000 pages, its default) keeps the WAL near 4 MB; a WAL that grew past this while a long read
 * held checkpoints back is cut back to it when it next starts over.
 */
export const JOURNAL_SIZE_LIMIT_BYTES = 256 * 1024 * 1024;

/** The drizzle handle every repository function takes. */
export type Db = BetterSQLite3Database<typeof schema>;

export interface DatabaseHandle {
  db: Db;
  /** The better-sqlite3 connection under `db` (pragmas). */
  sqlite: Database.Database;
  /** Closes the SQLite file; safe to call twice. */
  close(): void;
}

/** The repository's drizzle/ folder (generated migrations), found from this file. */
export function defaultMigrationsFolder(): string {
  return fileURLToPath(new URL("../../../../drizzle", import.meta.url));
}

/**
 * Opens (creating folder and file, owner-only, if needed) the SQLite database at `file`, applies every pending
 * migration and returns the drizzle handle. WAL lets readers proceed during writes; busy_timeout
 * rides out a concurrent writer (e.g. a second backend pointed at the same file) instead of failing.
 * It is short on purpose: better-sqlite3 waits synchronously, so the whole board (every session's
 * events, every request) stands still while it waits. A writer's commit takes milliseconds; a
 * lock held longer (another program's open transaction) fails the write with 503 DATABASE_BUSY
 * after BUSY_TIMEOUT_MS instead of freezing the board for seconds per write.
 */
export function openDatabase(file: string, options: { migrationsFolder?: string } = {}): DatabaseHandle {
  createPrivateFile(file);
  const sqlite = new Database(file);
  try {
    reportCommitErrorsOfReturningWrites(sqlite);
    sqlite.pragma("journal_mode = WAL");
    // SQLite gives -wal and -shm the database file's mode; an older board's files are set here.
    for (const suffix of ["-wal", "-shm"]) chmodIfPresent(`${file}${suffix}`, PRIVATE_FILE_MODE);
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("synchronous = NORMAL");
    // Checkpoints: SQLite's automatic one (wal_autocheckpoint, default 1,000 pages) in the commit
    // that fills the WAL; when the WAL starts over, a file grown past this is cut back.
    sqlite.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
    const db = drizzle(sqlite, { schema });
    migrate(db, { migrationsFolder: options.migrationsFolder ?? defaultMigrationsFolder() });
    let closed = false;
    return {
      db,
      sqlite,
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

/** Folders the board creates for its data: the owner alone may list or enter them. */
export const PRIVATE_DIR_MODE = 0o700;
/** The database and its -wal/-shm: they hold profiles' API keys and every transcript. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the database file readable by its owner only, with the folders leading to it that are
 * missing (0700 each). Folders that already exist are the user's choice and keep their mode; the
 * file itself is the board's and is set to 0600 even when an earlier run made it wider.
 */
function createPrivateFile(file: string): void {
  const resolved = path.resolve(file);
  fs.mkdirSync(path.dirname(resolved), { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    fs.closeSync(fs.openSync(resolved, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, PRIVATE_FILE_MODE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  fs.chmodSync(resolved, PRIVATE_FILE_MODE);
}

function chmodIfPresent(file: string, mode: number): void {
  try {
    fs.chmodSync(file, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

const PATCHED = Symbol.for("kandev.returningWritesRunToCompletion");

/**
 * better-sqlite3's `Statement#get` steps once and then resets the statement. For a write with
 * RETURNING outside a transaction (every `insert/update ... returning().get()` of the repos),
 * SQLite commits at that reset, and a commit that fails (the disk is full) is not reported: get()
 * hands back the row of a write that was rolled back. Found by the reliability suite: a POST
 * answered 201 with the new row, and nothing was stored. For writes that return rows, get() now
 * runs the statement to completion (all()), so the failed commit throws SQLITE_FULL like run() does.
 * Reads keep the driver's get().
 */
function reportCommitErrorsOfReturningWrites(sqlite: Database.Database): void {
  type Statement = { reader: boolean; readonly: boolean; all(...args: unknown[]): unknown[]; get(...args: unknown[]): unknown };
  const proto = Object.getPrototypeOf(sqlite.prepare("SELECT 1")) as Statement & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  const get = proto.get;
  proto.get = function (this: Statement, ...args: unknown[]) {
    return this.reader && !this.readonly ? this.all(...args)[0] : get.apply(this, args);
  };
  proto[PATCHED] = true;
}
