import { createHash, timingSafeEqual } from "node:crypto";

/** Extracts the token from an `Authorization: Bearer <token>` header value; null otherwise. */
export function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== "string") return null;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m ? (m[1] ?? null) : null;
}

/**
 * Compares a presented token with the expected one in constant time. Both are hashed first so the
 * buffers have equal length and the comparison leaks neither content nor length.
 */
export function tokenMatches(expected: string, presented: string | null): boolean {
  if (presented === null) return false;
  const a = createHash("sha256").update(expected, "utf8").digest();
  const b = createHash("sha256").update(presented, "utf8").digest();
  return timingSafeEqual(a, b);
}
