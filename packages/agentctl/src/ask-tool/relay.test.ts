// The relay end to end inside one process: a real MCP client calls the real tool server, whose relay
// sends a real request frame through BackendRequests; the test plays the backend.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { KANDEV_TOOL_NAME, errorFrame, responseFrame, type Envelope } from "@kandev/protocol";
import { BackendRequests } from "../backend-requests.js";
import { startKandevToolServer, type KandevToolServer } from "./mcp-server.js";
import { createKandevRelay, relayFailureMessage } from "./relay.js";

const ARGS = { questions: [{ prompt: "Which DB?", options: [{ label: "Postgres" }, { label: "SQLite" }] }] };

function setup(online = true) {
  const sent: Envelope[] = [];
  const waiters: Array<(f: Envelope) => void> = [];
  const requests = new BackendRequests({
    send: (f) => {
      if (!online) return false;
      sent.push(f);
      for (const w of waiters.splice(0)) w(f);
      return true;
    },
  });
  const nextFrame = () => (sent.length > 0 ? Promise.resolve(sent[sent.length - 1]!) : new Promise<Envelope>((r) => waiters.push(r)));
  return { requests, sent, nextFrame };
}

const servers: KandevToolServer[] = [];
const clients: Client[] = [];
after(async () => {
  for (const c of clients) await c.close();
  for (const s of servers) await s.close();
});

async function toolClient(requests: BackendRequests, sessionId: string | null = "s1") {
  const server = await startKandevToolServer({ relay: createKandevRelay({ requests, sessionId: () => sessionId }) });
  servers.push(server);
  const client = new Client({ name: "test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  clients.push(client);
  return client;
}

describe("kandev tool relay", () => {
  test("a call becomes kandev.ask_user_question {session_id, questions}; the backend's text is the tool result", async () => {
    const b = setup();
    const client = await toolClient(b.requests);
    const call = client.callTool({ name: KANDEV_TOOL_NAME, arguments: ARGS });
    const frame = await b.nextFrame();
    assert.equal(frame.action, "kandev.ask_user_question");
    assert.deepEqual(frame.payload, { session_id: "s1", questions: ARGS.questions });
    b.requests.onReply(responseFrame(frame.id!, frame.action, { text: "Postgres it is.", answer: { answers: [] } }));
    const result = await call;
    assert.notEqual(result.isError, true);
    assert.deepEqual(result.content, [{ type: "text", text: "Postgres it is." }]);
  });

  test("a backend error becomes a tool error carrying its message and code", async () => {
    const b = setup();
    const client = await toolClient(b.requests);
    const call = client.callTool({ name: KANDEV_TOOL_NAME, arguments: ARGS });
    const frame = await b.nextFrame();
    b.requests.onReply(errorFrame(frame.id, frame.action, { code: "CONFLICT", message: "the session has ended" }));
    const result = await call;
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: "text", text: "The question could not be asked: the session has ended (CONFLICT)" }]);
  });

  test("no backend connected -> an immediate tool error naming it", async () => {
    const b = setup(false);
    const client = await toolClient(b.requests);
    const result = await client.callTool({ name: KANDEV_TOOL_NAME, arguments: ARGS });
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /not connected to agentctl \(NOT_CONNECTED\)/);
    assert.equal(b.requests.pendingCount, 0);
  });

  test("the agent dropping the HTTP request abandons the backend request", async () => {
    const b = setup();
    const relay = createKandevRelay({ requests: b.requests, sessionId: () => "s1" });
    let relayFailed!: (message: string) => void;
    const failed = new Promise<string>((r) => (relayFailed = r));
    const server = await startKandevToolServer({
      relay: (args, signal) => relay(args, signal).catch((err: Error) => (relayFailed(err.message), Promise.reject(err))),
    });
    servers.push(server);
    const client = new Client({ name: "test", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const call = client.callTool({ name: KANDEV_TOOL_NAME, arguments: ARGS }).catch((e: unknown) => e);
    await b.nextFrame();
    assert.equal(b.requests.pendingCount, 1);
    await client.close(); // aborts the in-flight POST: the server's request signal fires
    assert.match(await failed, /agent cancelled the tool call \(CANCELLED\)/);
    assert.equal(b.requests.pendingCount, 0);
    await call;
  });

  test("relayFailureMessage keeps the code of protocol and backend-request errors", async () => {
    const { ProtocolError } = await import("@kandev/protocol");
    const { BackendRequestError } = await import("../backend-requests.js");
    assert.equal(relayFailureMessage(new ProtocolError("NOT_FOUND", "gone")), "gone (NOT_FOUND)");
    assert.equal(relayFailureMessage(new BackendRequestError("TIMEOUT", "late")), "late (TIMEOUT)");
    assert.equal(relayFailureMessage(new Error("plain")), "plain");
    assert.equal(relayFailureMessage("str"), "str");
  });
});
