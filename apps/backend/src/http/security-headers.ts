import type { ServerResponse } from "node:http";

/**
 * Content-Security-Policy for pages. Next.js's production pages carry inline bootstrap scripts
 * (`self.__next_f.push`) and inline styles, so those need 'unsafe-inline'; everything else is
 * same-origin only, and the board is never framed.
 */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** JSON and plain-text answers never need to load anything. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function applySecurityHeaders(res: ServerResponse, kind: "api" | "web"): void {
  res.setHeader("Content-Security-Policy", kind === "api" ? API_CSP : WEB_CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
}
