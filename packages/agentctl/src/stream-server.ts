// Transport side of the agent stream: HTTP server, authenticated WebSocket upgrade, one client at a
// time, and a bounded buffer for events emitted while no client is connected. Frames are opaque
// text here; dispatcher.ts gives them meaning.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { WebSocketServer, WebSocket, type RawData } from "ws";
import { AGENT_STREAM_PATH, eventId, type Envelope } from "@kandev/protocol";
import { bearerToken, tokenMatches } from "./token.js";

export const MAX_FRAME_BYTES = 8 * 1024 * 1024;
export const EVENT_BUFFER_LIMIT = 1000;
/**
 * Events sent on a connection are kept this long (at most REPLAY_LIMIT of them) and replayed on
 * the next one: a frame written to a socket whose peer is already gone is lost without an error,
 * in the moment before we notice the close. Each event carries its number (`eventId`), so the
 * client drops what it already had. Found by the reliability suite (an answer's settle event,
 * sent as the backend's socket died, never reached the board).
 */
export const REPLAY_WINDOW_MS = 2000;
export const REPLAY_LIMIT = 200;
/** Close code sent to a client that a newer authorised connection replaced. */
export const CLOSE_REPLACED = 4000;

export interface StreamServerOptions {
  host: string;
  port: number;
  token: string;
  /** Called for every text frame from the current client; `reply` answers on that same socket. */
  onFrame: (raw: string, reply: (frame: Envelope) => void) => void;
  /**
   * The current client is gone (closed, replaced by a newer connection, or the server is closing).
   * Called before any frame of a replacing client is handled, so requests sent to the old client
   * can be failed before new ones go out.
   */
  onClientGone?: (why: "closed" | "replaced" | "server_closing") => void;
  log?: (message: string) => void;
  maxFrameBytes?: number;
  bufferLimit?: number;
  /** Clock for the replay window (tests). */
  now?: () => number;
}

export interface StreamServer {
  readonly port: number;
  /** True while a client is connected. */
  readonly connected: boolean;
  /**
   * Sends an event (numbered: `id` = eventId(n)) to the client, or buffers it (bounded, oldest
   * dropped first) until one connects.
   */
  emit(frame: Envelope): void;
  /**
   * Sends a frame to the connected client only; never buffers. Returns false when no client is
   * connected (or its socket is already closing): a request must fail then, not wait for a backend.
   */
  trySend(frame: Envelope): boolean;
  /** Closes the client and the server; resolves when the port is released. */
  close(): Promise<void>;
}

export async function startStreamServer(options: StreamServerOptions): Promise<StreamServer> {
  const log = options.log ?? (() => {});
  const bufferLimit = options.bufferLimit ?? EVENT_BUFFER_LIMIT;
  const buffer: string[] = [];
  let dropped = 0;
  let current: WebSocket | null = null;
  let seq = 0;
  /** Events sent on a connection lately, replayed on the next one (see REPLAY_WINDOW_MS). */
  const recent: Array<{ at: number; text: string }> = [];
  const now = options.now ?? Date.now;
  const send = (ws: WebSocket, text: string) => ws.send(text);
  const forgetOld = () => {
    const cutoff = now() - REPLAY_WINDOW_MS;
    while (recent.length > 0 && (recent.length > REPLAY_LIMIT || recent[0]!.at < cutoff)) recent.shift();
  };

  const http = createServer((_req, res) => {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: "NOT_FOUND", message: `the agent stream is served at ${AGENT_STREAM_PATH}` }));
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes ?? MAX_FRAME_BYTES, perMessageDeflate: false });

  const refuse = (socket: Socket, status: string) => {
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    socket.destroySoon?.();
  };

  http.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const path = new URL(req.url ?? "/", "http://agentctl").pathname;
    if (path !== AGENT_STREAM_PATH) return refuse(socket, "404 Not Found");
    if (!tokenMatches(options.token, bearerToken(req.headers.authorization))) {
      log("agentctl: refused an agent-stream connection with a missing or wrong token");
      return refuse(socket, "401 Unauthorized");
    }
    wss.handleUpgrade(req, socket, head, (ws) => adopt(ws));
  });

  function adopt(ws: WebSocket): void {
    if (current !== null) {
      log("agentctl: a new agent-stream client replaces the previous one");
      const old = current;
      current = null;
      old.close(CLOSE_REPLACED, "replaced by a newer connection");
      options.onClientGone?.("replaced");
    }
    current = ws;
    if (dropped > 0) log(`agentctl: ${dropped} event(s) were dropped while no client was connected (buffer limit ${bufferLimit})`);
    dropped = 0;
    // Flush synchronously so nothing emitted meanwhile can overtake the buffered events; the
    // recent ones first, as they were emitted before anything buffered.
    forgetOld();
    for (const { text } of recent) ws.send(text);
    for (const text of buffer.splice(0)) {
      ws.send(text);
      recent.push({ at: now(), text });
    }
    ws.on("message", (data: RawData, isBinary: boolean) => {
      if (ws !== current) return; // a replaced client's late frames are not ours to act on
      const raw = isBinary ? "" : rawToString(data);
      options.onFrame(isBinary ? "<binary frame>" : raw, (frame) => {
        if (ws.readyState === WebSocket.OPEN) send(ws, JSON.stringify(frame));
      });
    });
    ws.on("close", () => {
      if (ws !== current) return;
      current = null;
      options.onClientGone?.("closed");
    });
    ws.on("error", (err) => log(`agentctl: agent-stream socket error: ${err.message}`));
  }

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  return {
    port,
    get connected() {
      return current !== null && current.readyState === WebSocket.OPEN;
    },
    emit(frame) {
      seq += 1;
      const text = JSON.stringify({ ...frame, id: eventId(seq) });
      if (current !== null && current.readyState === WebSocket.OPEN) {
        send(current, text);
        recent.push({ at: now(), text });
        forgetOld();
        return;
      }
      buffer.push(text);
      if (buffer.length > bufferLimit) {
        buffer.shift();
        dropped += 1;
      }
    },
    trySend(frame) {
      if (current === null || current.readyState !== WebSocket.OPEN) return false;
      send(current, JSON.stringify(frame));
      return true;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.close(1001, "agentctl shutting down");
        const hadClient = current !== null;
        current = null;
        if (hadClient) options.onClientGone?.("server_closing");
        wss.close();
        http.close(() => resolve());
        // Give close frames a moment, then cut whatever is left so the port is released promptly.
        setTimeout(() => {
          for (const ws of wss.clients) ws.terminate();
          http.closeAllConnections();
        }, 200).unref();
      });
      return closing;
    },
  };
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8");
  return data.toString("utf8");
}
