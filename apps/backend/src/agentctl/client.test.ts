import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { AGENT_STREAM_PATH, ProtocolError, type Envelope } from "@kandev/protocol";
import { silentLogger } from "../logger.js";
import { AgentStreamClient, type AgentEventMessage } from "./client.js";

const TOKEN = "t".repeat(64);

/** A scripted stand-in for agentctl's stream server: real HTTP upgrade, real frames. */
class FakeAgentctl {
  readonly server = http.createServer();
  readonly wss = new WebSocketServer({ noServer: true });
  socket: WebSocket | null = null;
  connections = 0;
  received: Envelope[] = [];
  reply: (frame: Envelope, socket: WebSocket) => void = () => undefined;
  private waiters: Array<() => void> = [];

  constructor() {
    this.server.on("upgrade", (req, socket, head) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n");
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        this.socket = ws;
        this.connections++;
        ws.on("message", (data) => {
          const frame = JSON.parse(data.toString()) as Envelope;
          this.received.push(frame);
          this.reply(frame, ws);
          this.waiters.splice(0).forEach((w) => w());
        });
        this.waiters.splice(0).forEach((w) => w());
      });
    });
  }
  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}${AGENT_STREAM_PATH}`;
  }
  /** Resolves when `cond` holds, re-checked on every connection and frame; bounded. */
  async until(cond: () => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > deadline) throw new Error("condition not met in time");
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }
  send(frame: Envelope): void {
    this.socket!.send(JSON.stringify(frame));
  }
  async close(): Promise<void> {
    for (const c of this.wss.clients) c.terminate();
    this.wss.close();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

const statusResult = { configured: true, agent_running: true, agent_pid: 1, session_id: null, turn_active: false, pending_permissions: 0, pending_elicitations: 0 };

describe("AgentStreamClient against a fake agentctl", () => {
  let fake: FakeAgentctl;
  let url: string;
  const events: AgentEventMessage[] = [];
  let alive = true;
  let lost: Error | null = null;
  let client: AgentStreamClient;

  before(async () => {
    fake = new FakeAgentctl();
    url = await fake.listen();
    client = new AgentStreamClient({
      url,
      token: TOKEN,
      logger: silentLogger,
      isProcessAlive: () => alive,
      onEvent: (e) => events.push(e),
      onLost: (err) => (lost = err),
      timeouts: { "agent.status": 200 },
      transportBackoff: { initialMs: 20, maxMs: 50, maxAttempts: 3 },
    });
    await client.connect();
  });
  after(async () => {
    client.close();
    await fake.close();
  });

  test("a wrong token is refused with UNAUTHORIZED", async () => {
    const bad = new AgentStreamClient({ url, token: "nope", logger: silentLogger, isProcessAlive: () => false, onEvent: () => undefined });
    await assert.rejects(bad.connect(), (err: unknown) => err instanceof ProtocolError && err.code === "UNAUTHORIZED");
  });

  test("requests carry ids, params get their defaults, results are validated", async () => {
    fake.reply = (f, ws) => ws.send(JSON.stringify({ id: f.id, type: "response", action: f.action, payload: { ok: true } }));
    await client.request("agent.configure", { agent: { command: ["x"] }, features: { acpElicitation: false } });
    const sent = fake.received.at(-1)!;
    assert.equal(sent.type, "request");
    assert.equal(sent.action, "agent.configure");
    assert.ok(sent.id);
    assert.deepEqual(sent.payload, { agent: { command: ["x"] }, agent_id: "generic", features: { acpElicitation: false }, auto_approve_permissions: false, timeouts: {} });
  });

  test("an invalid result rejects with INTERNAL_ERROR", async () => {
    fake.reply = (f, ws) => ws.send(JSON.stringify({ id: f.id, type: "response", action: f.action, payload: { ok: "yes" } }));
    await assert.rejects(client.request("agent.cancel", { session_id: "s" }), (err: unknown) => err instanceof ProtocolError && err.code === "INTERNAL_ERROR");
  });

  test("an error frame keeps its code, message and details", async () => {
    fake.reply = (f, ws) =>
      ws.send(JSON.stringify({ id: f.id, type: "error", action: f.action, payload: { code: "CONFLICT", message: "busy", details: { a: 1 } } }));
    await assert.rejects(
      client.request("agent.prompt", { session_id: "s", text: "hi", turn_id: "t" }),
      (err: unknown) => err instanceof ProtocolError && err.code === "CONFLICT" && err.message === "busy",
    );
  });

  test("invalid params are refused locally and never sent", async () => {
    const before = fake.received.length;
    // @ts-expect-error deliberately wrong
    await assert.rejects(client.request("agent.prompt", { session_id: "" }), (err: unknown) => err instanceof ProtocolError && err.code === "VALIDATION_ERROR");
    assert.equal(fake.received.length, before);
  });

  test("a request without an answer times out with TIMEOUT", async () => {
    fake.reply = () => undefined;
    await assert.rejects(client.request("agent.status", {}), (err: unknown) => err instanceof ProtocolError && err.code === "TIMEOUT");
  });

  test("events are validated; invalid and unknown ones are dropped", async () => {
    fake.send({ type: "notification", action: "agent.stderr", payload: { text: 42 } });
    fake.send({ type: "notification", action: "no.such.event", payload: {} });
    fake.send({ type: "notification", action: "turn.started", payload: { session_id: "s", turn_id: "t" } });
    await fake.until(() => events.length > 0);
    assert.deepEqual(events, [{ name: "turn.started", payload: { session_id: "s", turn_id: "t" } }]);
  });

  test("an agentctl -> backend request nobody serves is answered UNKNOWN_ACTION", async () => {
    const before = fake.received.length;
    fake.send({ id: "a-1", type: "request", action: "kandev.ask_user_question", payload: {} });
    await fake.until(() => fake.received.length > before);
    const answer = fake.received.at(-1)!;
    assert.equal(answer.id, "a-1");
    assert.equal(answer.type, "error");
    assert.equal((answer.payload as { code: string }).code, "UNKNOWN_ACTION");
  });

  test("a dropped socket rejects pending requests with NOT_CONNECTED, then reconnects while agentctl lives", async () => {
    fake.reply = () => undefined;
    const pending = client.request("agent.initialize", {});
    await fake.until(() => fake.received.at(-1)?.action === "agent.initialize");
    const connections = fake.connections;
    fake.socket!.terminate();
    await assert.rejects(pending, (err: unknown) => err instanceof ProtocolError && err.code === "NOT_CONNECTED");
    await fake.until(() => fake.connections > connections && client.connected);
    fake.reply = (f, ws) => ws.send(JSON.stringify({ id: f.id, type: "response", action: f.action, payload: statusResult }));
    assert.deepEqual(await client.request("agent.status", {}), statusResult);
  });

  test("once agentctl is gone the stream closes for good and reports the loss", async () => {
    alive = false;
    fake.socket!.terminate();
    const err = await client.closed;
    assert.ok(err instanceof ProtocolError && err.code === "NOT_CONNECTED");
    assert.ok(lost !== null);
    await assert.rejects(client.request("agent.status", {}), (e: unknown) => e instanceof ProtocolError && e.code === "NOT_CONNECTED");
  });
});

describe("AgentStreamClient: agentctl -> backend requests, disconnect hook, suspend (test seam)", () => {
  let fake: FakeAgentctl;
  let client: AgentStreamClient;
  const disconnects: Error[] = [];
  before(async () => {
    fake = new FakeAgentctl();
    const url = await fake.listen();
    client = new AgentStreamClient({
      url,
      token: TOKEN,
      logger: silentLogger,
      isProcessAlive: () => true,
      onEvent: () => undefined,
      onDisconnect: (err) => disconnects.push(err),
      onRequest: async (action, payload) => {
        if ((payload as { bad?: boolean }).bad) throw new ProtocolError("VALIDATION_ERROR", "invalid ask_user_question_kandev input: questions: ask 1-4 questions");
        return { text: `answered ${action}`, answer: { answers: [] } };
      },
      transportBackoff: { initialMs: 20, maxMs: 50, maxAttempts: 5 },
    });
    await client.connect();
  });
  after(async () => {
    client.close();
    await fake.close();
  });

  test("the handler's result is the response; its ProtocolError keeps code and message (the agent's tool error)", async () => {
    fake.send({ id: "agentctl-1", type: "request", action: "kandev.ask_user_question", payload: { session_id: null, questions: [] } });
    fake.send({ id: "agentctl-2", type: "request", action: "kandev.ask_user_question", payload: { bad: true } });
    await fake.until(() => fake.received.filter((f) => f.id?.startsWith("agentctl-")).length === 2);
    const ok = fake.received.find((f) => f.id === "agentctl-1")!;
    assert.deepEqual([ok.type, ok.payload], ["response", { text: "answered kandev.ask_user_question", answer: { answers: [] } }]);
    const bad = fake.received.find((f) => f.id === "agentctl-2")!;
    assert.equal(bad.type, "error");
    assert.deepEqual(bad.payload, { code: "VALIDATION_ERROR", message: "invalid ask_user_question_kandev input: questions: ask 1-4 questions" });
  });

  test("suspend drops the socket (onDisconnect fires, requests fail NOT_CONNECTED, no reconnect) until resume", async () => {
    const connections = fake.connections;
    client.suspend();
    await fake.until(() => disconnects.length > 0);
    assert.equal(client.connected, false);
    await assert.rejects(client.request("agent.status", {}), (err: unknown) => err instanceof ProtocolError && err.code === "NOT_CONNECTED");
    await new Promise((r) => setTimeout(r, 150)); // several backoff periods: prove it stays down
    assert.equal(fake.connections, connections, "no reconnect while suspended");
    await client.resume();
    assert.equal(client.connected, true);
    assert.equal(fake.connections, connections + 1);
  });
});
