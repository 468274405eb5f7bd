// What the app shows for the board's sign-in state (issue 34): purely from what health and
// `/auth/me` said. With auth off the app is exactly as before (no forms, no user in the header).
import type { AuthStatus, Me } from "@kandev/protocol";

/** What `/auth/me` said: a user, "no credentials" (401), or not known yet / unreachable. */
export type MeState = { kind: "user"; user: Me } | { kind: "signed_out" } | { kind: "unknown" };

export type AuthView = { kind: "loading" } | { kind: "open" } | { kind: "setup" } | { kind: "login" } | { kind: "signed_in"; user: Me };

/**
 * `status` is health's `auth` (undefined while loading; a board without the field has no auth);
 * `signedOut` is set once any request was answered 401, so one place turns a 401 into the login form.
 */
export function authView(status: AuthStatus | null | undefined, me: MeState, signedOut: boolean): AuthView {
  if (status === undefined) return { kind: "loading" };
  if (status === null || !status.enabled) return { kind: "open" };
  if (status.setup_required) return { kind: "setup" };
  if (signedOut) return { kind: "login" };
  switch (me.kind) {
    case "user":
      return { kind: "signed_in", user: me.user };
    case "signed_out":
      return { kind: "login" };
    case "unknown":
      return { kind: "loading" };
    default: {
      const unreachable: never = me;
      throw new Error(`unknown me state ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Whether an error means "these credentials are gone or were never there". */
export function isUnauthorized(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { status?: unknown }).status === 401;
}

/** The words for a failed sign-in: one message for a wrong name or password, a wait for 429. */
export function signInProblem(err: { status: number; retryAfterSeconds?: number | null } | null): {
  key: "auth.wrongCredentials" | "auth.rateLimited" | "auth.failed";
  values?: { seconds: number };
} | null {
  if (err === null) return null;
  if (err.status === 401) return { key: "auth.wrongCredentials" };
  if (err.status === 429) return { key: "auth.rateLimited", values: { seconds: Math.max(1, Math.ceil(err.retryAfterSeconds ?? 60)) } };
  return { key: "auth.failed" };
}
