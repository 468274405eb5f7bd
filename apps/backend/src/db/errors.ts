/**
 * Classifies SQLite failures by the extended code better-sqlite3's SqliteError carries. Matched by
 * shape, so callers (HTTP error mapping, the clarification store) need no driver import. Pure.
 */

/** SQLite's extended result code of a driver error (e.g. "SQLITE_BUSY"), or null for anything else. */
export function sqliteCode(err: unknown): string | null {
  if (!(err instanceof Error) || err.name !== "SqliteError") return null;
  const code = (err as Error & { code?: unknown }).code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : null;
}

/** Another connection holds the lock (BUSY/LOCKED): the same write can succeed once it lets go. */
export function isDatabaseBusy(code: string | null): boolean {
  return code !== null && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/**
 * The write failed because of the machine (locked, disk full, I/O), not because of the data: worth
 * retrying later rather than dropping.
 */
export function isStorageUnavailable(err: unknown): boolean {
  const code = sqliteCode(err);
  return isDatabaseBusy(code) || code === "SQLITE_FULL" || code?.startsWith("SQLITE_IOERR") === true;
}
