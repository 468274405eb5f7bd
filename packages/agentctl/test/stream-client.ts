// A tiny agent-stream client that behaves like the backend: bearer token, requests by id,
// events collected for waitFor().
import WebSocket from "ws";
import { AGENT_STREAM_PATH, type Envelope } from "@kandev/protocol";

export class StreamError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(`${code}: ${message}`);
  }
}

type Waiter = { predicate: (e: Envelope) => boolean; resolve: (e: Envelope) => void };

export class StreamClient {
  /** Every notification received, in order. */
  readonly events: Envelope[] = [];
  /** Every frame received, in order (responses, errors, notifications). */
  readonly frames: Envelope[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly pending = new Map<string, (e: Envelope) => void>();
  private waiters: Waiter[] = [];
  private nextId = 1;

  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data)) as Envelope;
      this.frames.push(frame);
      if (frame.type === "notification") this.events.push(frame);
      if (frame.id !== undefined && (frame.type === "response" || frame.type === "error")) {
        const p = this.pending.get(frame.id);
        this.pending.delete(frame.id);
        p?.(frame);
      }
      for (const w of [...this.waiters]) {
        if (w.predicate(frame)) {
          this.waiters = this.waiters.filter((x) => x !== w);
          w.resolve(frame);
        }
      }
    });
    this.closed = new Promise((resolve) => ws.once("close", (code, reason) => resolve({ code, reason: String(reason) })));
  }

  static url(port: number): string {
    return `ws://127.0.0.1:${port}${AGENT_STREAM_PATH}`;
  }

  static connect(port: number, token: string): Promise<StreamClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(StreamClient.url(port), { headers: { authorization: `Bearer ${token}` } });
      const client = new StreamClient(ws);
      ws.once("open", () => resolve(client));
      ws.once("error", reject);
      ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
  }

  /** Tries an upgrade and reports the HTTP status it got (101 when it was accepted). */
  static probe(port: number, headers: Record<string, string>, path = AGENT_STREAM_PATH): Promise<number> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
      ws.once("open", () => {
        ws.close();
        resolve(101);
      });
      ws.once("unexpected-response", (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.once("error", (err) => reject(err));
    });
  }

  sendRaw(text: string): void {
    this.ws.send(text);
  }

  /** Sends a request and resolves with the response or error envelope. */
  request(action: string, payload: unknown, timeoutMs = 30_000): Promise<Envelope> {
    const id = `req-${this.nextId++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no answer to ${action} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, (frame) => {
        clearTimeout(timer);
        resolve(frame);
      });
      this.ws.send(JSON.stringify({ id, type: "request", action, payload }));
    });
  }

  /** Like request(), but resolves with the result payload and throws StreamError on an error frame. */
  async call<T = Record<string, unknown>>(action: string, payload: unknown = {}, timeoutMs?: number): Promise<T> {
    const frame = await this.request(action, payload, timeoutMs);
    if (frame.type === "error") {
      const p = frame.payload as { code: string; message: string; details?: unknown };
      throw new StreamError(p.code, p.message, p.details);
    }
    return frame.payload as T;
  }

  /** Resolves with the first frame (already received or future) matching `predicate`. */
  waitFor(predicate: (e: Envelope) => boolean, timeoutMs = 30_000, what = "a matching frame"): Promise<Envelope> {
    const seen = this.frames.find(predicate);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Waits for the notification `action` whose payload matches `match` (shallow). */
  waitForEvent(action: string, match: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<Envelope> {
    return this.waitFor(
      (e) =>
        e.type === "notification" &&
        e.action === action &&
        Object.entries(match).every(([k, v]) => (e.payload as Record<string, unknown>)[k] === v),
      timeoutMs,
      `${action} ${JSON.stringify(match)}`,
    );
  }

  /** Waits for a request agentctl sends to us (BACKEND_ACTIONS), as the backend would see it. */
  waitForRequest(action: string, timeoutMs = 30_000): Promise<Envelope> {
    return this.waitFor((e) => e.type === "request" && e.action === action, timeoutMs, `request ${action}`);
  }

  /** Every request agentctl sent us for `action`. */
  requestsOf(action: string): Envelope[] {
    return this.frames.filter((e) => e.type === "request" && e.action === action);
  }

  /** Answers one of agentctl's requests with a result. */
  reply(request: Envelope, payload: unknown): void {
    this.ws.send(JSON.stringify({ id: request.id, type: "response", action: request.action, payload }));
  }

  /** Answers one of agentctl's requests with an error. */
  replyError(request: Envelope, code: string, message: string): void {
    this.ws.send(JSON.stringify({ id: request.id, type: "error", action: request.action, payload: { code, message } }));
  }

  eventsOf(action: string): Envelope[] {
    return this.events.filter((e) => e.action === action);
  }

  close(): Promise<{ code: number; reason: string }> {
    this.ws.close();
    return this.closed;
  }
}
