"use client";
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { BROWSER_WS_PATH, type SubscribeParams } from "@kandev/protocol";
import type { LiveNotification } from "../lib/live-cache";
import { api } from "../lib/api";
import { useAuth } from "./auth/AuthContext";
import { isUnauthorized } from "../lib/auth/auth-view";
import type { AuthCheck } from "../lib/auth/ws-refusal";
import { WsClient, browserWsUrl, type WsStatus } from "../lib/ws-client";

const LiveContext = createContext<WsClient | null>(null);

/** `/auth/me` after a socket that never opened (lib/auth/ws-refusal.ts). */
async function checkAuth(): Promise<AuthCheck> {
  try {
    await api.me();
    return "signed_in";
  } catch (err) {
    return isUnauthorized(err) ? "signed_out" : "unknown";
  }
}

/**
 * Owns the one WebSocket client; it connects after mount (never during server rendering). A refused
 * upgrade that `/auth/me` confirms as "signed out" stops it and calls `onSignedOut`.
 */
export function LiveProvider({ children, onSignedOut }: { children: ReactNode; onSignedOut?: () => void }) {
  const queryClient = useQueryClient();
  const signedOut = useRef(onSignedOut);
  useEffect(() => {
    signedOut.current = onSignedOut;
  });
  const [client] = useState(
    () => new WsClient({ url: () => browserWsUrl(BROWSER_WS_PATH), queryClient, checkAuth, onSignedOut: () => signedOut.current?.() }),
  );
  // Connect once sign-in is settled (auth off, or a known user): a board with auth on would refuse a
  // socket opened before that, and the browser would log the refusal.
  const { enabled, user } = useAuth();
  const ready = enabled === false || (enabled === true && user !== null);
  useEffect(() => {
    if (!ready) return;
    client.start();
    return () => client.stop();
  }, [client, ready]);
  return <LiveContext.Provider value={client}>{children}</LiveContext.Provider>;
}

function useLiveClient(): WsClient {
  const client = useContext(LiveContext);
  if (!client) throw new Error("useLiveClient outside <LiveProvider>");
  return client;
}

/** The connection state, for the indicator. "connecting" on the server and before mount. */
export function useWsStatus(): WsStatus {
  const client = useLiveClient();
  return useSyncExternalStore(
    (cb) => client.onChange(cb),
    () => client.getStatus(),
    () => "connecting",
  );
}

/**
 * Subscribes to a scope while the calling component is mounted; returns whether the server has
 * acknowledged it on the current connection (live updates are flowing).
 */
export function useLiveSubscription(params: SubscribeParams | null): boolean {
  const client = useLiveClient();
  const key = params ? JSON.stringify(params) : null;
  useEffect(() => {
    if (!key) return;
    return client.subscribe(JSON.parse(key) as SubscribeParams);
  }, [client, key]);
  return useSyncExternalStore(
    (cb) => client.onChange(cb),
    () => (params ? client.isSubscribed(params) : false),
    () => false,
  );
}

/**
 * Calls `listener` with every validated live notification while the calling component is mounted
 * (after the cache has been updated). The latest listener is always used, without resubscribing.
 */
export function useLiveNotifications(listener: (n: LiveNotification) => void): void {
  const client = useLiveClient();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => client.onNotification((n) => latest.current(n)), [client]);
}
