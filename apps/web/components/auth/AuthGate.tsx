"use client";
import { useCallback, useMemo, useSyncExternalStore, type ReactNode } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api";
import { authView, isUnauthorized, type MeState } from "../../lib/auth/auth-view";
import type { SignedOutSignal } from "../../lib/auth/signed-out";
import { queryKeys } from "../../lib/query-keys";
import { AuthContext, type AuthState } from "./AuthContext";
import { AuthPage } from "./AuthPage";

/** A fresh page load: every cache, the live connection and the board's preload start over with the new cookie. */
function reloadPage(): void {
  window.location.replace(window.location.href);
}

/**
 * Shows the first-run form, the login form or the app, from health's `auth` and `/auth/me`
 * (lib/auth/auth-view.ts). Until health answers, and always with auth off, the app renders as it
 * did before sign-in existed; a 401 from any request (the query client's hook sets `signedOut`)
 * replaces it with the login form, which unmounts the live connection with the rest.
 */
export function AuthGate({ signedOut, children }: { signedOut: SignedOutSignal; children: ReactNode }) {
  const queryClient = useQueryClient();
  const health = useQuery({ queryKey: queryKeys.health(), queryFn: ({ signal }) => api.authStatus(signal) });
  // Undefined only until the first answer: a refetch keeps the known status (no flicker of role-bound controls).
  const status = health.data !== undefined ? health.data : health.isError ? null : undefined;
  const needsMe = status?.enabled === true && !status.setup_required;
  const me = useQuery({ queryKey: queryKeys.me(), queryFn: ({ signal }) => api.me(signal), enabled: needsMe });
  const wasSignedOut = useSyncExternalStore(signedOut.subscribe, signedOut.get, () => false);
  const meState: MeState = me.data ? { kind: "user", user: me.data } : isUnauthorized(me.error) ? { kind: "signed_out" } : { kind: "unknown" };
  const view = authView(status, meState, wasSignedOut);

  const logout = useCallback(async () => {
    try {
      await api.logout();
    } finally {
      queryClient.clear();
      reloadPage();
    }
  }, [queryClient]);
  const enabled = status === undefined ? null : status === null ? false : status.enabled;
  const user = view.kind === "signed_in" ? view.user : null;
  const state = useMemo<AuthState>(() => ({ enabled, user, logout }), [enabled, user, logout]);

  switch (view.kind) {
    case "setup":
    case "login":
      return <AuthPage mode={view.kind} onSignedIn={reloadPage} />;
    case "loading":
    case "open":
    case "signed_in":
      return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
    default: {
      const unreachable: never = view;
      throw new Error(`unknown auth view ${JSON.stringify(unreachable)}`);
    }
  }
}
