import type { QueryClient } from "@tanstack/react-query";
import { SubscribeParamsSchema, parseEnvelope, type Envelope, type SubscribeParams } from "@kandev/protocol";
import { DEFAULT_BACKOFF, reconnectDelay, type BackoffOptions } from "./backoff";
import { applyNotification, parseNotification, type LiveNotification } from "./live-cache";
import { afterAuthCheck, afterSocketClose, type AuthCheck } from "./auth/ws-refusal";

/** What the live indicator shows. */
export type WsStatus = "connecting" | "open" | "reconnecting" | "closed";

/** The part of the browser's WebSocket this client uses (a fake one in tests). */
export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export interface WsClientOptions {
  /** Resolved at each connect, so it can read `location` lazily. */
  url: () => string;
  queryClient: QueryClient;
  createSocket?: (url: string) => SocketLike;
  backoff?: BackoffOptions;
  random?: () => number;
  /** Schedules a reconnect; returns a canceller. */
  schedule?: (fn: () => void, ms: number) => () => void;
  log?: (message: string, detail?: unknown) => void;
  /**
   * Asks `/auth/me` after a socket closed before it opened (the board may have refused the upgrade
   * for want of a session). A "signed_out" answer stops the client and calls `onSignedOut`.
   */
  checkAuth?: () => Promise<AuthCheck>;
  onSignedOut?: () => void;
}

interface Subscription {
  params: SubscribeParams;
  refs: number;
  acked: boolean;
}

/** The board's WebSocket URL on the page's own origin. */
export function browserWsUrl(path = "/ws"): string {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${window.location.host}${path}`;
}

const defaultSchedule = (fn: () => void, ms: number) => {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
};

/**
 * The one live connection to `/ws`. It reconnects with backoff, re-sends its subscriptions on every
 * connect, validates every incoming frame against the protocol schemas and writes updates into the
 * react-query cache. Queries are invalidated whenever a subscription is (re)acknowledged and after a
 * reconnect, so whatever happened while it was not listening is fetched again.
 */
export class WsClient {
  private readonly opts: Required<Omit<WsClientOptions, "createSocket" | "checkAuth" | "onSignedOut">> &
    Pick<WsClientOptions, "createSocket" | "checkAuth" | "onSignedOut">;
  /** Bumped by start/stop, so an auth check that outlived its run does nothing. */
  private run = 0;
  private socket: SocketLike | null = null;
  private open = false;
  private started = false;
  private everOpened = false;
  private attempt = 0;
  private cancelRetry: (() => void) | null = null;
  private status: WsStatus = "connecting";
  private nextId = 1;
  private readonly subs = new Map<string, Subscription>();
  /** Request id -> subscription key, for subscribe requests awaiting their response. */
  private readonly pending = new Map<string, string>();
  private readonly listeners = new Set<() => void>();
  private readonly notificationListeners = new Set<(n: LiveNotification) => void>();

  constructor(options: WsClientOptions) {
    this.opts = {
      backoff: DEFAULT_BACKOFF,
      random: Math.random,
      schedule: defaultSchedule,
      log: (message, detail) => console.warn(`[ws] ${message}`, detail ?? ""),
      ...options,
    };
  }

  getStatus(): WsStatus {
    return this.status;
  }

  /** Whether the server acknowledged this subscription on the current connection. */
  isSubscribed(params: SubscribeParams): boolean {
    return this.subs.get(keyOf(params))?.acked ?? false;
  }

  /** Listens to status and acknowledgement changes (for useSyncExternalStore). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Hears every validated server notification after it has been written into the cache (browser
   * notifications, task updates...). A throwing listener is logged and never stops the others.
   */
  onNotification(listener: (n: LiveNotification) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.run += 1;
    this.attempt = 0;
    this.connect();
  }

  stop(): void {
    this.started = false;
    this.run += 1;
    this.cancelRetry?.();
    this.cancelRetry = null;
    const socket = this.socket;
    this.dropConnection();
    socket?.close(1000, "client stopped");
    this.setStatus("closed");
  }

  /** Adds a reference to a subscription; the returned function removes it. */
  subscribe(input: SubscribeParams): () => void {
    const params = SubscribeParamsSchema.parse(input);
    const key = keyOf(params);
    const existing = this.subs.get(key);
    if (existing) existing.refs += 1;
    else {
      this.subs.set(key, { params, refs: 1, acked: false });
      if (this.open) this.sendSubscribe(key);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const sub = this.subs.get(key);
      if (!sub) return;
      sub.refs -= 1;
      if (sub.refs > 0) return;
      this.subs.delete(key);
      if (this.open) this.send({ id: this.newId(), type: "request", action: "unsubscribe", payload: sub.params });
      this.emit();
    };
  }

  private connect(): void {
    this.setStatus(this.everOpened ? "reconnecting" : "connecting");
    let socket: SocketLike;
    try {
      socket = this.opts.createSocket ? this.opts.createSocket(this.opts.url()) : (new WebSocket(this.opts.url()) as SocketLike);
    } catch (err) {
      this.opts.log("could not open the socket", err);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (socket !== this.socket) return;
      const reconnected = this.everOpened;
      this.open = true;
      this.everOpened = true;
      // A server that accepts and then drops us must not be hammered: with subscriptions, the
      // backoff resets only once one is acknowledged (see settle).
      if (this.subs.size === 0) this.attempt = 0;
      this.setStatus("open");
      for (const key of this.subs.keys()) this.sendSubscribe(key);
      // With subscriptions, each acknowledgement invalidates; without, catch up right away.
      if (reconnected && this.subs.size === 0) this.catchUp();
    };
    socket.onmessage = (ev) => {
      if (socket === this.socket) this.receive(ev.data);
    };
    socket.onclose = (ev) => {
      if (socket !== this.socket) return;
      const opened = this.open;
      this.dropConnection();
      if (!this.started) {
        this.setStatus("closed");
        return;
      }
      const code = typeof ev === "object" && ev !== null ? (ev as { code?: unknown }).code : undefined;
      switch (afterSocketClose(opened, this.opts.checkAuth !== undefined, typeof code === "number" ? code : undefined)) {
        case "sign_out":
          this.signOut();
          return;
        case "check_auth":
          void this.checkAuthThenReconnect();
          return;
        case "reconnect":
          this.scheduleReconnect();
          return;
      }
    };
    // A close event always follows an error; reconnecting happens there.
    socket.onerror = () => undefined;
  }

  private dropConnection(): void {
    this.socket = null;
    this.open = false;
    this.pending.clear();
    for (const sub of this.subs.values()) sub.acked = false;
  }

  /** See lib/auth/ws-refusal.ts: a refused upgrade must end in the login form, not in endless retries. */
  private async checkAuthThenReconnect(): Promise<void> {
    const run = this.run;
    this.setStatus("reconnecting");
    let check: AuthCheck;
    try {
      check = this.opts.checkAuth ? await this.opts.checkAuth() : "unknown";
    } catch {
      check = "unknown";
    }
    if (run !== this.run || !this.started) return;
    if (afterAuthCheck(check) === "sign_out") {
      this.signOut();
      return;
    }
    this.scheduleReconnect();
  }

  /** No more reconnects: the session is gone and the app shows the login form. */
  private signOut(): void {
    this.stop();
    this.opts.onSignedOut?.();
  }

  private scheduleReconnect(): void {
    this.setStatus("reconnecting");
    const delay = reconnectDelay(this.attempt, this.opts.backoff, this.opts.random);
    this.attempt += 1;
    this.cancelRetry = this.opts.schedule(() => {
      this.cancelRetry = null;
      if (this.started) this.connect();
    }, delay);
  }

  private receive(data: unknown): void {
    if (typeof data !== "string") {
      this.opts.log("dropped a non-text frame");
      return;
    }
    let envelope: Envelope;
    try {
      envelope = parseEnvelope(data);
    } catch (err) {
      this.opts.log("dropped an invalid frame", err);
      return;
    }
    switch (envelope.type) {
      case "response":
      case "error":
        this.settle(envelope);
        return;
      case "notification": {
        const result = parseNotification(envelope);
        if (!result.ok) {
          this.opts.log(result.reason);
          return;
        }
        applyNotification(this.opts.queryClient, result.notification);
        for (const listener of this.notificationListeners) {
          try {
            listener(result.notification);
          } catch (err) {
            this.opts.log("a notification listener failed", err);
          }
        }
        return;
      }
      case "request":
        this.opts.log(`unexpected request ${envelope.action}`);
        return;
      default: {
        const unreachable: never = envelope.type;
        this.opts.log(`unknown frame type ${String(unreachable)}`);
      }
    }
  }

  private settle(envelope: Envelope): void {
    if (envelope.id === undefined) {
      if (envelope.type === "error") this.opts.log("server error", envelope.payload);
      return;
    }
    const key = this.pending.get(envelope.id);
    if (key === undefined) return;
    this.pending.delete(envelope.id);
    const sub = this.subs.get(key);
    if (!sub) return;
    if (envelope.type === "error") {
      this.opts.log(`subscribe ${key} refused`, envelope.payload);
      return;
    }
    sub.acked = true;
    this.attempt = 0;
    this.emit();
    this.catchUp();
  }

  /**
   * Fetches everything again now that updates flow. In-flight fetches are cancelled first: one
   * that began before the subscription existed may have read a state older than the first update
   * we will receive, and react-query would otherwise let it stand instead of starting a new one.
   */
  private catchUp(): void {
    const queryClient = this.opts.queryClient;
    void queryClient
      .cancelQueries()
      .then(() => queryClient.invalidateQueries())
      .catch((err: unknown) => this.opts.log("refetch after (re)subscribing failed", err));
  }

  private sendSubscribe(key: string): void {
    const sub = this.subs.get(key);
    if (!sub) return;
    const id = this.newId();
    this.pending.set(id, key);
    this.send({ id, type: "request", action: "subscribe", payload: sub.params });
  }

  private send(frame: Envelope): void {
    try {
      this.socket?.send(JSON.stringify(frame));
    } catch (err) {
      this.opts.log("send failed", err);
    }
  }

  private newId(): string {
    return `c${this.nextId++}`;
  }

  private setStatus(status: WsStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

function keyOf(params: SubscribeParams): string {
  if ("board" in params) return "board";
  if ("task_id" in params) return `task:${params.task_id}`;
  return `session:${params.session_id}`;
}
