"use client";
import { createContext, useContext } from "react";
import type { Me } from "@kandev/protocol";
import { type AuthAction, can } from "../../lib/auth/permissions";

/** Sign-in as the app knows it: `enabled` null until health has answered. */
export interface AuthState {
  enabled: boolean | null;
  user: Me | null;
  /** Ends the session (POST /auth/logout) and shows the login form. */
  logout: () => Promise<void>;
}

export const AuthContext = createContext<AuthState>({ enabled: false, user: null, logout: async () => undefined });

export function useAuth(): AuthState {
  return useContext(AuthContext);
}

/**
 * Whether the current user may do `action`. With auth off the one local user is an admin (as
 * before issue 34); while health is still loading nothing role-bound is shown.
 */
export function useCan(action: AuthAction): boolean {
  const { enabled, user } = useAuth();
  if (enabled === false) return true;
  return user !== null && can(user.role, action);
}

/** The username to show beside an action, only on a board with sign-in (with auth off it is always "local"). */
export function useAttribution(user: string | null | undefined): string | null {
  const { enabled } = useAuth();
  return enabled === true && typeof user === "string" && user.length > 0 ? user : null;
}
