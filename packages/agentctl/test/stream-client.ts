// A tiny agent-stream client that behaves like the backend: NDJSON envelopes over agentctl's
// stdin/stdout, requests by id, every frame tagged with its session, events collected for
// waitFor(). One StreamLine per agentctl process; one StreamClient per session on it.
import type { Readable, Writable } from "node:stream";
import { LineFramer } from "@kandev/acp-stdio";
import type { Envelope } from "@kandev/protocol";

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

/** The pipe pair to one agentctl: splits its stdout into frames and hands each to its session. */
export class StreamLine {
  /** Every frame received, in order, whatever its session (untagged error frames too). */
  readonly frames: Envelope[] = [];
  /** Resolves when agentctl's stdout ends. */
  readonly closed: Promise<void>;
  private readonly clients = new Map<string, StreamClient>();
  private readonly listeners = new Set<(frame: Envelope) => void>();

  constructor(
    private readonly input: Writable,
    output: Readable,
  ) {
    const framer = new LineFramer(64 * 1024 * 1024);
    const take = (items: ReturnType<LineFramer["push"]>) => {
      for (const item of items) if ("line" in item) this.receive(JSON.parse(item.line) as Envelope);
    };
    output.on("data", (chunk: Buffer) => take(framer.push(chunk)));
    this.closed = new Promise((resolve) => output.once("close", () => resolve()));
    input.on("error", () => undefined);
  }

  /** The client of `session` (made on first use). */
  client(session = "s1"): StreamClient {
    let c = this.clients.get(session);
    if (c === undefined) {
      c = new StreamClient(this, session);
      this.clients.set(session, c);
    }
    return c;
  }

  /** Writes one line as is (no session added). */
  sendRaw(text: string): void {
    this.input.write(`${text}\n`);
  }

  /** Calls `fn` for every frame from now on; returns the unsubscribe. */
  onFrame(fn: (frame: Envelope) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Ends agentctl's stdin, as a dying backend does. */
  end(): void {
    this.input.end();
  }

  private receive(frame: Envelope): void {
    this.frames.push(frame);
    if (frame.session !== undefined) this.clients.get(frame.session)?.receive(frame);
    for (const fn of [...this.listeners]) fn(frame);
  }
}

export class StreamClient {
  /** Every notification of this session received, in order. */
  readonly events: Envelope[] = [];
  /** Every frame of this session received, in order (responses, errors, notifications, requests). */
  readonly frames: Envelope[] = [];
  private readonly pending = new Map<string, (e: Envelope) => void>();
  private waiters: Waiter[] = [];
  private nextId = 1;

  constructor(
    readonly line: StreamLine,
    readonly session: string,
  ) {}

  /** @internal */
  receive(frame: Envelope): void {
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
  }

  /** Writes one line as is (no session added). */
  sendRaw(text: string): void {
    this.line.sendRaw(text);
  }

  /** Writes one frame tagged with this client's session. */
  sendFrame(frame: Omit<Envelope, "session">): void {
    this.line.sendRaw(JSON.stringify({ ...frame, session: this.session }));
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
      this.sendFrame({ id, type: "request", action, payload });
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

  /** Resolves with the first frame of this session (already received or future) matching `predicate`. */
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
        e.type === "notification" && e.action === action && Object.entries(match).every(([k, v]) => (e.payload as Record<string, unknown>)[k] === v),
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
    this.sendFrame({ id: request.id, type: "response", action: request.action, payload });
  }

  /** Answers one of agentctl's requests with an error. */
  replyError(request: Envelope, code: string, message: string): void {
    this.sendFrame({ id: request.id, type: "error", action: request.action, payload: { code, message } });
  }

  eventsOf(action: string): Envelope[] {
    return this.events.filter((e) => e.action === action);
  }

  /** Closes this session on agentctl (its agent stopped, its state dropped). */
  async close(): Promise<void> {
    await this.call("agent.session.close", {});
  }
}
