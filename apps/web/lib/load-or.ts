/**
 * A loader for code fetched on demand that never rejects: a failed import (a tab left open across a
 * rebuild asks for a chunk that is gone, or the board is down) resolves to `fallback`, which says so,
 * instead of throwing into the page and blanking it.
 */
export function loadOr<T>(load: () => Promise<T>, fallback: T): () => Promise<T> {
  return () => load().catch(() => fallback);
}
