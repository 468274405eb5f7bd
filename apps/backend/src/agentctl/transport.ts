import WebSocket from "ws";
import { ProtocolError } from "@kandev/protocol";
import type { Logger } from "../logger.js";

export interface TransportOptions {
  url: string;
  token: string;
  logger: Logger;
  /** Asked before each reconnect attempt: reconnecting only makes sense while agentctl lives. */
  shouldReconnect: () => boolean;
  onFrame: (text: string) => void;
  /** The socket dropped (the protocol layer rejects its pending requests). */
  onDisconnect: (err: Error) => void;
  onReconnect: () => void;
  backoff?: { initialMs: number; maxMs: number; maxAttempts: number };
  connectTimeoutMs?: number;
}

const DEFAULT_BACKOFF = { initialMs: 100, maxMs: 2000, maxAttempts: 15 };

/**
 * One agent-stream WebSocket (framing, connect, auth, reconnect); it knows nothing of request ids.
 * While agentctl lives, a dropped socket is reopened with exponential backoff (agentctl buffers the
 * events meanwhile); `closed` settles once, when the transport gives up or `close()` is called.
 */
export class AgentStreamTransport {
  readonly closed: Promise<Error | undefined>;
  private resolveClosed!: (err: Error | undefined) => void;
  private socket: WebSocket | null = null;
  private isClosed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** Test seam: while set, the socket stays down and no reconnect is attempted. */
  private suspended = false;
  private readonly backoff: { initialMs: number; maxMs: number; maxAttempts: number };
  /** Frames that arrived between the handshake and attach() (see open()). */
  private readonly early = new WeakMap<WebSocket, { frames: string[]; hold: (data: WebSocket.RawData, isBinary: boolean) => void }>();

  constructor(private readonly options: TransportOptions) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Opens the first connection; rejects (and closes the transport) if it cannot. */
  async connect(): Promise<void> {
    try {
      this.attach(await this.open());
    } catch (err) {
      this.close(asError(err));
      throw err;
    }
  }

  send(text: string): void {
    const socket = this.socket;
    if (this.isClosed || socket === null || socket.readyState !== WebSocket.OPEN) {
      throw new ProtocolError("NOT_CONNECTED", "the agent stream is not connected");
    }
    socket.send(text);
  }

  /** Final close: no more reconnects; `closed` resolves with `err`. */
  close(err?: Error): void {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    const socket = this.socket;
    this.socket = null;
    if (socket !== null) {
      socket.removeAllListeners();
      socket.on("error", () => undefined);
      socket.terminate();
      this.options.onDisconnect(err ?? new Error("agent stream closed"));
    }
    this.resolveClosed(err);
  }

  /**
   * Test seam: drops the socket (as a network failure would, pending requests reject with
   * NOT_CONNECTED) and holds reconnection until `resume()`, while agentctl stays alive.
   */
  suspend(): void {
    if (this.isClosed) return;
    this.suspended = true;
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.socket?.terminate();
  }

  /** Ends `suspend()`: reconnects at once (the returned promise resolves once connected). */
  async resume(): Promise<void> {
    if (!this.suspended || this.isClosed) return;
    this.suspended = false;
    if (this.socket === null) this.scheduleReconnect(0, new Error("resumed"), 0);
    const deadline = Date.now() + 10_000;
    while (!this.connected && !this.isClosed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    if (!this.connected) throw new ProtocolError("NOT_CONNECTED", "the agent stream did not come back");
  }

  private open(): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.options.url, {
        headers: { Authorization: `Bearer ${this.options.token}` },
        handshakeTimeout: this.options.connectTimeoutMs ?? 5000,
        perMessageDeflate: false,
        maxPayload: 64 * 1024 * 1024,
      });
      const fail = (err: Error) => {
        socket.removeAllListeners();
        socket.on("error", () => undefined);
        socket.terminate();
        reject(err);
      };
      // agentctl flushes the events it buffered while we were away the moment it accepts us, so
      // they can ride in the same TCP read as the 101 and be emitted before attach() runs (a
      // promise continuation, after the socket's nextTick data). Held here, replayed by attach():
      // without this, events of a reconnect were lost (found by the reliability suite).
      const early: string[] = [];
      const hold = (data: WebSocket.RawData, isBinary: boolean) => {
        if (!isBinary) early.push(data.toString());
      };
      socket.on("message", hold);
      this.early.set(socket, { frames: early, hold });
      socket.once("open", () => {
        socket.removeAllListeners("open");
        socket.removeAllListeners("error");
        socket.removeAllListeners("unexpected-response");
        resolve(socket);
      });
      socket.once("unexpected-response", (_req, res) =>
        fail(new ProtocolError(res.statusCode === 401 ? "UNAUTHORIZED" : "NOT_CONNECTED", `agent stream upgrade refused with HTTP ${res.statusCode}`)),
      );
      socket.once("error", (err) => fail(new ProtocolError("NOT_CONNECTED", `agent stream connect failed: ${err.message}`)));
    });
  }

  private attach(socket: WebSocket): void {
    if (this.isClosed) {
      socket.terminate();
      return;
    }
    this.socket = socket;
    const early = this.early.get(socket);
    this.early.delete(socket);
    if (early !== undefined) socket.off("message", early.hold);
    socket.on("message", (data, isBinary) => {
      if (isBinary) {
        this.options.logger.warn("agent stream: binary frame dropped");
        return;
      }
      this.options.onFrame(data.toString());
    });
    for (const text of early?.frames ?? []) this.options.onFrame(text);
    socket.on("error", (err) => this.options.logger.warn("agent stream socket error", { error: err.message }));
    socket.on("close", (code, reason) => {
      if (this.socket !== socket) return;
      this.socket = null;
      const err = new ProtocolError("NOT_CONNECTED", `agent stream closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ""})`);
      this.options.onDisconnect(err);
      this.scheduleReconnect(0, err);
    });
  }

  private scheduleReconnect(attempt: number, lastError: Error, delayMs?: number): void {
    if (this.isClosed || this.suspended) return;
    if (!this.options.shouldReconnect() || attempt >= this.backoff.maxAttempts) {
      this.close(new ProtocolError("NOT_CONNECTED", `lost the agent stream: ${lastError.message}`));
      return;
    }
    const delay = delayMs ?? Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** attempt);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.isClosed || this.suspended) return;
      this.open().then(
        (socket) => {
          if (this.isClosed || this.suspended) {
            socket.terminate();
            return;
          }
          this.options.logger.info("agent stream reconnected", { attempt: attempt + 1 });
          this.attach(socket);
          this.options.onReconnect();
        },
        (err: unknown) => this.scheduleReconnect(attempt + 1, asError(err)),
      );
    }, delay);
    this.reconnectTimer.unref();
  }
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
