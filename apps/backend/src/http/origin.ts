/** Methods that never change state; everything else needs an acceptable Origin. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isStateChanging(method: string | undefined): boolean {
  return !SAFE_METHODS.has((method ?? "GET").toUpperCase());
}

/**
 * The browser-request check of docs/API.md: no Origin (curl, scripts) is fine; the board's own
 * origin `http://<Host>` is fine; an origin listed in KANDEV_ALLOWED_ORIGINS is fine; anything
 * else (including the opaque "null" origin) is refused. Pure.
 */
export function isOriginAllowed(origin: string | undefined, host: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  const normalized = normalizeOrigin(origin);
  if (normalized === null) return false;
  if (host !== undefined && host.length > 0 && normalized === normalizeOrigin(`http://${host}`)) return true;
  return allowed.some((a) => normalizeOrigin(a) === normalized);
}

/** Lower-cases scheme and host and drops a default port, so `HTTP://Board:80` equals `http://board`. */
function normalizeOrigin(origin: string): string | null {
  if (origin === "null") return null;
  try {
    const url = new URL(origin);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.origin;
  } catch {
    return null;
  }
}
