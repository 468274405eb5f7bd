// When the board refuses the `/ws` upgrade (auth on, no valid session), the browser only sees a
// connection that closed before it opened, the same as a board that is down. Reconnecting forever
// would hammer the board and never show the login form, so such a close first asks `/auth/me`.

/** What `/auth/me` answered: a user, 401, or nothing usable (network trouble, 5xx). */
export type AuthCheck = "signed_in" | "signed_out" | "unknown";

/** The close code the board sends when a socket's session or token ended (logout, password change, revoked). */
export const SIGNED_OUT_CLOSE_CODE = 4401;

/**
 * After a close: the board saying "signed out" (4401) ends the connection for good; a socket that
 * had opened was dropped (reconnect); one that never opened may have been refused (ask first).
 */
export function afterSocketClose(opened: boolean, canCheckAuth: boolean, code?: number): "reconnect" | "check_auth" | "sign_out" {
  if (code === SIGNED_OUT_CLOSE_CODE) return "sign_out";
  return !opened && canCheckAuth ? "check_auth" : "reconnect";
}

/** After asking `/auth/me`: only a definite 401 stops reconnecting (and sends the app to the login form). */
export function afterAuthCheck(check: AuthCheck): "reconnect" | "sign_out" {
  switch (check) {
    case "signed_out":
      return "sign_out";
    case "signed_in":
    case "unknown":
      return "reconnect";
    default: {
      const unreachable: never = check;
      throw new Error(`unknown auth check ${String(unreachable)}`);
    }
  }
}
