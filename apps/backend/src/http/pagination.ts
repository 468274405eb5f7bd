// Keyset pagination for the list endpoints (`?limit=&cursor=`, next page's cursor in
// `X-Next-Cursor`). Pure: parsing and the cursor's encoding, no database.
import { HttpError } from "./errors.js";

/** The largest page a caller may ask for. */
export const MAX_PAGE_LIMIT = 1000;

/** The header that carries the next page's cursor; absent on the last page. */
export const NEXT_CURSOR_HEADER = "X-Next-Cursor";

/** A position in a list: the sort key of the last item of the previous page. */
export type CursorKey = readonly (string | number)[];

/** An opaque cursor: the key as JSON, base64url. Callers must not read it. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

/**
 * The key inside a cursor, checked against the shape its list uses (`"s"` a string, `"n"` a
 * non-negative integer per position); null for anything else, including a cursor of another list.
 */
export function decodeCursor(text: string, shape: readonly ("s" | "n")[]): CursorKey | null {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(text)) return null;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(key) || key.length !== shape.length) return null;
  const fits = key.every((v, i) => (shape[i] === "s" ? typeof v === "string" : Number.isSafeInteger(v) && (v as number) >= 0));
  return fits ? (key as CursorKey) : null;
}

export interface PageRequest {
  /** Absent: the whole list (the answer before pagination existed). */
  limit?: number;
  cursor?: CursorKey;
}

/** Reads `limit` and `cursor` from a query string; a malformed value is `400 BAD_REQUEST` naming it. */
export function parsePageRequest(query: URLSearchParams, shape: readonly ("s" | "n")[]): PageRequest {
  const out: PageRequest = {};
  const limit = query.get("limit");
  if (limit !== null) {
    const n = /^\d{1,7}$/.test(limit) ? Number(limit) : Number.NaN;
    if (!(n >= 1 && n <= MAX_PAGE_LIMIT)) {
      throw new HttpError(400, "BAD_REQUEST", `limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}, got ${JSON.stringify(limit)}`);
    }
    out.limit = n;
  }
  const cursor = query.get("cursor");
  if (cursor !== null) {
    const key = decodeCursor(cursor, shape);
    if (key === null) throw new HttpError(400, "BAD_REQUEST", "cursor is not one this list gave out");
    out.cursor = key;
  }
  return out;
}

/**
 * Cuts a page from rows fetched with one row more than the limit: that extra row only says another
 * page exists, whose cursor is the key of the page's last row.
 */
export function cutPage<T>(rows: readonly T[], limit: number | undefined, keyOf: (row: T) => CursorKey): { items: T[]; next: string | null } {
  if (limit === undefined || rows.length <= limit) return { items: [...rows], next: null };
  const items = rows.slice(0, limit);
  return { items, next: encodeCursor(keyOf(items[items.length - 1]!)) };
}
