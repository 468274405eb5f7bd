import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import {
  BROWSER_NOTIFICATIONS,
  BROWSER_REQUESTS,
  ProtocolError,
  errorFrame,
  notificationFrame,
  parseEnvelope,
  responseFrame,
  toErrorPayload,
  type BrowserNotification,
  type BrowserNotificationName,
  type BrowserRequestName,
  type Message,
  type MessageAppended,
  type Notification,
  type Session,
  type SessionLogNotification,
  type SubscribeParams,
  type Task,
} from "@kandev/protocol";
import type { LogPublisher } from "../lifecycle/session-logs.js";
import type { Logger } from "../logger.js";
import { isOriginAllowed } from "../http/origin.js";
import { AppendBatcher } from "./append-batcher.js";

/** What the lifecycle layer pushes to browsers; the hub decides who receives it. */
export interface Publisher {
  taskUpdated(task: Task): void;
  sessionUpdated(session: Session): void;
  messageAdded(message: Message): void;
  messageUpdated(message: Message): void;
  /** Streamed text added to a message: sent batched as `session.message.appended` (append-batcher.ts). */
  messageAppended(append: MessageAppended): void;
  notify(notification: Notification): void;
}

/** Largest frame a browser may send; subscriptions are tiny. */
const MAX_FRAME_BYTES = 64 * 1024;
/**
 * Most topics one socket may subscribe to. The web app holds a handful (the board, an open task);
 * without a cap one socket could make every publish walk an unbounded set, and hold memory that
 * grows with the ids it invents.
 */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 1000;
const HEARTBEAT_MS = 30_000;
/**
 * What may wait in one socket's send queue. A browser that reads stays far below it; one that does
 * not keep up (a stalled tab, a slow link, a client that never reads) is dropped past it, so the
 * board's memory does not grow with its slowest reader. The web app reconnects and refetches.
 */
export const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

/**
 * Whether a socket with `queued` bytes waiting has fallen behind, about to be sent a frame of
 * `frame` characters. Two frames' worth always fit, so a reader that keeps up is never dropped for
 * one big message (a long reply's full content); beyond that, past MAX_QUEUED_BYTES. Pure.
 */
export function fallenBehind(queued: number, frame: number, limit = MAX_QUEUED_BYTES): boolean {
  return queued > Math.max(limit, 2 * frame);
}

export interface HubOptions {
  allowedOrigins: readonly string[];
  logger: Logger;
  /** The clock the append batches are timed by (default performance.now). */
  now?: () => number;
  /** Arms the timer that sends due append batches (default setTimeout, unref'd). */
  schedule?: (run: () => void, ms: number) => { cancel: () => void };
}

const unrefTimer = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
};

interface Client {
  socket: WebSocket;
  topics: Set<string>;
  alive: boolean;
  /** Whether the credentials the socket opened with still hold (auth on); see closeRevoked. */
  stillValid: () => boolean;
}

/** Subscription topics: the board, one task, or one session. */
export function topicOf(params: SubscribeParams): string {
  if ("board" in params) return "board";
  if ("task_id" in params) return `task:${params.task_id}`;
  return `session:${params.session_id}`;
}

/**
 * The browser WebSocket at /ws: subscriptions per socket, fan-out of task/session/message updates,
 * notifications to everyone. Every outgoing payload matches BROWSER_NOTIFICATIONS: tasks, sessions,
 * messages and notifications were validated when they were built (views.ts, notifications/), so
 * they are not parsed again here; session log lines are validated here.
 */
export class BrowserHub implements Publisher, LogPublisher {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  private readonly clients = new Set<Client>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly appends = new AppendBatcher();
  /** The one timer that sends the earliest due batch of appends; null while none waits. */
  private appendTimer: { cancel: () => void } | null = null;

  constructor(private readonly options: HubOptions) {
    this.heartbeat = setInterval(() => this.sweep(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** Handles an HTTP upgrade for /ws; a foreign Origin gets a plain HTTP 403 and no socket. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, stillValid: () => boolean = () => true): void {
    if (!isOriginAllowed(req.headers.origin, req.headers.host, this.options.allowedOrigins)) {
      const body = JSON.stringify({ error: { code: "FORBIDDEN_ORIGIN", message: "origin not allowed" } });
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws, stillValid));
  }

  /**
   * Closes every socket whose credentials ended (a logout, a password change, a deleted user or
   * revoked token): the sign-in check runs at the upgrade, so a session's end must reach the
   * sockets it opened. Close code 4401 tells the web app to sign in again.
   */
  closeRevoked(): void {
    for (const c of this.clients) {
      if (c.stillValid()) continue;
      c.socket.close(4401, "signed out");
      this.clients.delete(c);
    }
  }

  // Built by views.ts (toTask, toSession, toMessage) and NotificationService, which validate them.
  // Each frame about a task or session first sends the appends still batched for it, so a client
  // sees every frame in the order the board produced it (a turn's end after its last text).
  taskUpdated(task: Task): void {
    this.flushAppends((a) => a.task_id === task.id);
    this.publish("task.updated", { task }, (t) => t.has("board") || t.has(`task:${task.id}`));
  }
  sessionUpdated(session: Session): void {
    this.flushAppends((a) => a.session_id === session.id);
    this.publish("session.updated", { session }, (t) => t.has(`session:${session.id}`) || t.has(`task:${session.task_id}`));
  }
  messageAdded(message: Message): void {
    this.flushAppends((a) => a.session_id === message.session_id);
    this.publish("session.message.added", { message }, (t) => t.has(`session:${message.session_id}`) || t.has(`task:${message.task_id}`));
  }
  messageUpdated(message: Message): void {
    this.flushAppends((a) => a.session_id === message.session_id);
    this.publish("session.message.updated", { message }, (t) => t.has(`session:${message.session_id}`) || t.has(`task:${message.task_id}`));
  }
  /** Built by LiveStore from the row it appended to; joined per message and sent when its window ends. */
  messageAppended(append: MessageAppended): void {
    for (const frame of this.appends.add(append, this.now())) this.sendAppended(frame);
    this.armAppendTimer();
  }
  notify(notification: Notification): void {
    this.publish("notification", { notification }, () => true);
  }
  sessionLog(payload: SessionLogNotification): void {
    this.flushAppends((a) => a.session_id === payload.session_id);
    const parsed = BROWSER_NOTIFICATIONS["session.log"].safeParse(payload);
    if (!parsed.success) {
      this.options.logger.error("refusing to push an invalid browser notification", { action: "session.log", issues: parsed.error.issues });
      return;
    }
    this.publish("session.log", parsed.data, (t) => t.has(`session:${payload.session_id}`) || t.has(`task:${payload.task_id}`));
  }

  /** A task's changed files (workspaces/): its subscribers only; validated here like session logs. */
  taskChangesUpdated(payload: BrowserNotification<"task.changes.updated">): void {
    this.flushAppends((a) => a.task_id === payload.task_id);
    const parsed = BROWSER_NOTIFICATIONS["task.changes.updated"].safeParse(payload);
    if (!parsed.success) {
      this.options.logger.error("refusing to push an invalid browser notification", { action: "task.changes.updated", issues: parsed.error.issues });
      return;
    }
    this.publish("task.changes.updated", parsed.data, (t) => t.has(`task:${payload.task_id}`));
  }
  taskDeleted(taskId: string): void {
    this.flushAppends((a) => a.task_id === taskId);
    this.publish("task.deleted", { task_id: taskId }, (t) => t.has("board") || t.has(`task:${taskId}`));
  }

  /** Closes every browser socket (server shutdown). */
  close(): void {
    clearInterval(this.heartbeat);
    // What was streamed last still reaches the browsers, ahead of the close; no timer outlives us.
    this.flushAppends(() => true);
    for (const c of this.clients) c.socket.close(1001, "server shutting down");
    for (const c of this.clients) c.socket.terminate();
    this.clients.clear();
    this.wss.close();
  }

  private now(): number {
    return this.options.now?.() ?? performance.now();
  }

  private sendAppended(frame: MessageAppended): void {
    this.publish("session.message.appended", frame, (t) => t.has(`session:${frame.session_id}`) || t.has(`task:${frame.task_id}`));
  }

  /** Sends the batched appends `wanted` picks now, ahead of the frame the caller is about to send. */
  private flushAppends(wanted: (append: MessageAppended) => boolean): void {
    if (this.appends.size === 0) return;
    for (const frame of this.appends.take(wanted)) this.sendAppended(frame);
    if (this.appends.size === 0 && this.appendTimer !== null) {
      this.appendTimer.cancel();
      this.appendTimer = null;
    }
  }

  private armAppendTimer(): void {
    if (this.appendTimer !== null) return;
    const due = this.appends.nextDue();
    if (due === null) return;
    const schedule = this.options.schedule ?? unrefTimer;
    this.appendTimer = schedule(
      () => {
        this.appendTimer = null;
        for (const frame of this.appends.due(this.now())) this.sendAppended(frame);
        this.armAppendTimer();
      },
      Math.max(0, Math.ceil(due - this.now())),
    );
  }

  /** Sends a valid payload to every open socket that wants it, serialised once. */
  private publish<N extends BrowserNotificationName>(
    action: N,
    payload: BrowserNotification<N>,
    wants: (topics: ReadonlySet<string>) => boolean,
  ): void {
    let text: string | null = null;
    for (const c of this.clients) {
      if (c.socket.readyState !== c.socket.OPEN || !wants(c.topics)) continue;
      text ??= JSON.stringify(notificationFrame(action, payload));
      if (fallenBehind(c.socket.bufferedAmount, text.length)) {
        this.dropSlowReader(c);
        continue;
      }
      c.socket.send(text);
    }
  }

  /**
   * Ends a socket whose reader fell behind. Terminated, not closed: a close frame would queue behind
   * everything the reader never took. Its queue is freed at once; a browser reconnects and resyncs.
   */
  private dropSlowReader(c: Client): void {
    this.options.logger.warn("dropping a /ws client that does not keep up", { queued_bytes: c.socket.bufferedAmount, limit: MAX_QUEUED_BYTES });
    c.topics.clear();
    this.clients.delete(c);
    c.socket.terminate();
  }

  private attach(socket: WebSocket, stillValid: () => boolean): void {
    const client: Client = { socket, topics: new Set(), alive: true, stillValid };
    this.clients.add(client);
    socket.on("pong", () => (client.alive = true));
    socket.on("message", (data, isBinary) => this.onFrame(client, isBinary ? null : data.toString()));
    socket.on("error", (err) => this.options.logger.debug("browser socket error", { error: err.message }));
    socket.on("close", () => {
      client.topics.clear();
      this.clients.delete(client);
    });
  }

  private onFrame(client: Client, text: string | null): void {
    const send = (frame: unknown) => client.socket.readyState === client.socket.OPEN && client.socket.send(JSON.stringify(frame));
    if (text === null) {
      send(errorFrame(undefined, "unknown", { code: "BAD_REQUEST", message: "binary frames are not accepted" }));
      return;
    }
    let id: string | undefined;
    let action = "unknown";
    try {
      const frame = parseEnvelope(text);
      id = frame.id;
      action = frame.action;
      if (frame.type !== "request") throw new ProtocolError("BAD_REQUEST", `browsers may only send requests, got ${frame.type}`);
      if (id === undefined) throw new ProtocolError("BAD_REQUEST", "a request needs an id");
      if (!Object.hasOwn(BROWSER_REQUESTS, action)) {
        throw new ProtocolError("UNKNOWN_ACTION", `unknown action ${action}`);
      }
      const name = action as BrowserRequestName;
      const params = BROWSER_REQUESTS[name].parse(frame.payload);
      switch (name) {
        case "subscribe": {
          const topic = topicOf(params);
          const max = MAX_SUBSCRIPTIONS_PER_SOCKET;
          // Subscribing again to a held topic changes nothing, so it is never refused.
          if (!client.topics.has(topic) && client.topics.size >= max) {
            throw new ProtocolError(
              "LIMIT_EXCEEDED",
              `this socket already holds ${max} subscriptions, the most one socket may hold: unsubscribe first`,
              {
                limit: max,
              },
            );
          }
          client.topics.add(topic);
          break;
        }
        case "unsubscribe":
          client.topics.delete(topicOf(params));
          break;
        default: {
          const _x: never = name;
          throw new ProtocolError("UNKNOWN_ACTION", `unknown action ${String(_x)}`);
        }
      }
      send(responseFrame(id, action, { ok: true }));
    } catch (err) {
      send(errorFrame(id, action, toErrorPayload(err)));
    }
  }

  private sweep(): void {
    for (const c of this.clients) {
      if (!c.alive) {
        c.socket.terminate();
        continue;
      }
      c.alive = false;
      c.socket.ping();
    }
  }
}
