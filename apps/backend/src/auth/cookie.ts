// The session cookie's wire form (pure). `Secure` only when the browser reached the board over TLS
// (directly, or through a proxy on this machine that says so): a Secure cookie over plain http on
// loopback would never be sent back.

export const SESSION_COOKIE = "kandev_session";
/** Sessions end this long after sign-in. */
export const SESSION_TTL_MS = 7 * 24 * 3_600_000;

export interface RequestTransport {
  /** The connection itself is TLS. */
  encrypted: boolean;
  /** `X-Forwarded-Proto`, if sent. */
  forwardedProto: string | undefined;
  /** The peer's address (a proxy's, when there is one). */
  remoteAddress: string | undefined;
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const a = address.startsWith("::ffff:") ? address.slice(7) : address;
  return a === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** TLS, or a proxy on this machine forwarding a request it received over https. */
export function isSecureRequest(t: RequestTransport): boolean {
  if (t.encrypted) return true;
  const proto = t.forwardedProto?.split(",")[0]?.trim().toLowerCase();
  return proto === "https" && isLoopbackAddress(t.remoteAddress);
}

/** `Set-Cookie` value that signs the browser in. */
export function sessionCookie(value: string, secure: boolean, maxAgeMs: number = SESSION_TTL_MS): string {
  const attrs = [`${SESSION_COOKIE}=${value}`, "HttpOnly", "SameSite=Strict", "Path=/", `Max-Age=${Math.floor(maxAgeMs / 1000)}`];
  if (secure) attrs.push("Secure");
  return attrs.join("; ");
}

/** `Set-Cookie` value that removes the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie("", secure, 0);
}

/** The `kandev_session` value of a `Cookie` header, if any. */
export function sessionFromCookieHeader(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value.length > 0 ? value : undefined;
    }
  }
  return undefined;
}

/** The token of `Authorization: Bearer <token>`, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}
