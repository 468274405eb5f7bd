// The stream server's client bookkeeping for agentctl's own requests: trySend never buffers, and
// onClientGone fires when the client closes, is replaced, or the server closes.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { AGENT_STREAM_PATH, notificationFrame, requestFrame } from "@kandev/protocol";
import { startStreamServer, type StreamServer } from "./stream-server.js";

const TOKEN = "t0ken";
const servers: StreamServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

async function server() {
  const gone: string[] = [];
  const goneWaiters: Array<() => void> = [];
  const s = await startStreamServer({
    host: "127.0.0.1",
    port: 0,
    token: TOKEN,
    onFrame: () => {},
    onClientGone: (why) => {
      gone.push(why);
      for (const w of goneWaiters.splice(0)) w();
    },
  });
  servers.push(s);
  const nextGone = () => new Promise<void>((r) => goneWaiters.push(r));
  return { s, gone, nextGone };
}

function connect(port: number): Promise<{ ws: WebSocket; frames: string[]; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${AGENT_STREAM_PATH}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const frames: string[] = [];
    ws.on("message", (d) => frames.push(String(d)));
    const closed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
    ws.once("open", () => resolve({ ws, frames, closed }));
    ws.once("error", reject);
  });
}

describe("stream server: trySend and onClientGone", () => {
  test("trySend refuses with no client and never buffers; emit buffers", async () => {
    const { s } = await server();
    assert.equal(s.trySend(requestFrame("agentctl-1", "kandev.ask_user_question", {})), false);
    s.emit(notificationFrame("agent.stderr", { text: "buffered" }));
    const c = await connect(s.port);
    const first = await new Promise<string>((r) => (c.frames.length > 0 ? r(c.frames[0]!) : c.ws.once("message", (d) => r(String(d)))));
    assert.equal(JSON.parse(first).action, "agent.stderr", "only the event was buffered, not the refused request");
    assert.equal(s.trySend(requestFrame("agentctl-2", "kandev.ask_user_question", {})), true);
    c.ws.close();
    await c.closed;
  });

  test("a closing client makes trySend refuse at once and onClientGone('closed') fire", async () => {
    const { s, gone, nextGone } = await server();
    const c = await connect(s.port);
    const goneNow = nextGone();
    c.ws.close();
    await c.closed; // the server has the close frame by now: its socket is no longer OPEN
    assert.equal(s.trySend(requestFrame("agentctl-1", "x", {})), false);
    await goneNow;
    assert.deepEqual(gone, ["closed"]);
  });

  test("a replacing client fires onClientGone('replaced') exactly once, the old close adds nothing", async () => {
    const { s, gone } = await server();
    const a = await connect(s.port);
    const b = await connect(s.port);
    assert.equal(await a.closed, 4000);
    assert.deepEqual(gone, ["replaced"]);
    assert.equal(s.trySend(requestFrame("agentctl-1", "x", {})), true);
    b.ws.close();
    await b.closed;
  });

  test("closing the server with a client connected fires onClientGone('server_closing')", async () => {
    const { s, gone } = await server();
    const c = await connect(s.port);
    await s.close();
    await c.closed;
    assert.deepEqual(gone, ["server_closing"]);
  });
});
