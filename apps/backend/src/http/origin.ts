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

/**
 * The DNS-rebinding check: a page on evil.example whose name is made to resolve to 127.0.0.1
 * reaches the board as a same-origin site (`Host: evil.example:PORT` and a matching Origin), which
 * the Origin check alone accepts, and could then read profiles (their env values) or create one
 * that runs any command. Browsers always send Host, so only names the board knows may appear
 * there: IP literals (cannot be rebound), `localhost` and `*.localhost` (browsers never ask DNS
 * for them), the host the board listens on, and the hosts of KANDEV_ALLOWED_ORIGINS. No Host at
 * all is not a browser and is allowed. Pure.
 */
export function isHostAllowed(host: string | undefined, listenHost: string, allowedOrigins: readonly string[]): boolean {
  if (host === undefined) return true;
  const name = hostnameOf(host);
  if (name === null) return false;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.startsWith("[")) return true;
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (name === listenHost.toLowerCase()) return true;
  return allowedOrigins.some((o) => {
    try {
      return new URL(o).hostname === name;
    } catch {
      return false;
    }
  });
}

/** `name[:port]` or `[v6][:port]` -> the lower-cased name (`[v6]` kept bracketed); anything else null. */
function hostnameOf(host: string): string | null {
  const v6 = /^(\[[0-9a-fA-F:.]+\])(?::\d{1,5})?$/.exec(host);
  if (v6 !== null) return v6[1]!;
  const name = /^([a-zA-Z0-9.-]+)(?::\d{1,5})?$/.exec(host);
  return name === null ? null : name[1]!.toLowerCase();
}
