// The protocol layer over an in-memory Transport (the real channel, a spawned agentctl, is proven
// by test/one-agentctl.test.ts and every integration test): ids, sessions, validation, timeouts,
// routing, and that a lost channel rejects everything pending at once.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ProtocolError, type Envelope } from "@kandev/protocol";
import { silentLogger } from "../logger.js";
import { AgentctlClient, type AgentEventMessage } from "./agentctl-client.js";
import type { Transport } from "./transport.js";

class MemoryTransport implements Transport {
  readonly sent: Envelope[] = [];
  readonly closed: Promise<Error | undefined>;
  lose: (err: Error | undefined) => void = () => undefined;
  private receiver: (line: string) => void = () => undefined;
  constructor() {
    this.closed = new Promise((resolve) => (this.lose = resolve));
  }
  send(line: string): void {
    this.sent.push(JSON.parse(line) as Envelope);
  }
  onLine(receiver: (line: string) => void): void {
    this.receiver = receiver;
  }
  deliver(frame: unknown): void {
    this.receiver(JSON.stringify(frame));
  }
  async close(): Promise<void> {
    this.lose(undefined);
  }
}

function setup() {
  const t = new MemoryTransport();
  return { t, client: new AgentctlClient(t, silentLogger) };
}

describe("AgentctlClient", () => {
  test("a request carries an id and its session; params get their defaults; the result is validated", async () => {
    const { t, client } = setup();
    const pending = client.request("s1", "agent.initialize", {});
    const sent = t.sent[0]!;
    assert.deepEqual(
      [sent.session, sent.type, sent.action, sent.payload],
      ["s1", "request", "agent.initialize", { client_name: "kandev", client_version: "0.1.0" }],
    );
    t.deliver({
      id: sent.id,
      session: "s1",
      type: "response",
      action: "agent.initialize",
      payload: { protocol_version: 1, agent_capabilities: {}, client_capabilities: {} },
    });
    assert.equal((await pending).protocol_version, 1);
    const bad = client.request("s1", "agent.status", {});
    t.deliver({ id: t.sent[1]!.id, session: "s1", type: "response", action: "agent.status", payload: { nope: true } });
    await assert.rejects(bad, (e: ProtocolError) => e.code === "INTERNAL_ERROR");
  });

  test("invalid params are refused locally; an error frame keeps its code; no answer is a TIMEOUT", async () => {
    const { t, client } = setup();
    await assert.rejects(
      client.request("s1", "agent.prompt", { session_id: "", text: "", turn_id: "" }),
      (e: ProtocolError) => e.code === "VALIDATION_ERROR",
    );
    assert.equal(t.sent.length, 0);
    const refused = client.request("s1", "agent.cancel", { session_id: "a" });
    t.deliver({
      id: t.sent[0]!.id,
      session: "s1",
      type: "error",
      action: "agent.cancel",
      payload: { code: "NOT_FOUND", message: "unknown session a" },
    });
    await assert.rejects(refused, (e: ProtocolError) => e.code === "NOT_FOUND" && e.message === "unknown session a");
    await assert.rejects(client.request("s1", "agent.status", {}, { timeoutMs: 10 }), (e: ProtocolError) => e.code === "TIMEOUT");
  });

  test("events reach the session they are tagged with, validated; others are dropped", () => {
    const { t, client } = setup();
    const a: AgentEventMessage[] = [];
    const b: AgentEventMessage[] = [];
    client.attach("a", { onEvent: (e) => a.push(e), onRequest: async () => ({}) });
    const detachB = client.attach("b", { onEvent: (e) => b.push(e), onRequest: async () => ({}) });
    t.deliver({ session: "a", type: "notification", action: "agent.stderr", payload: { text: "for a" } });
    t.deliver({ session: "b", type: "notification", action: "agent.stderr", payload: { text: 5 } });
    t.deliver({ session: "b", type: "notification", action: "agent.teleported", payload: {} });
    t.deliver({ session: "c", type: "notification", action: "agent.stderr", payload: { text: "nobody's" } });
    detachB();
    t.deliver({ session: "b", type: "notification", action: "agent.stderr", payload: { text: "after detach" } });
    assert.deepEqual(a, [{ name: "agent.stderr", payload: { text: "for a" } }]);
    assert.deepEqual(b, []);
  });

  test("agentctl's requests go to their session's handler and are answered under the same session; unknown sessions get NOT_FOUND", async () => {
    const { t, client } = setup();
    client.attach("a", {
      onEvent: () => undefined,
      onRequest: async (action) => {
        if (action === "kandev.ask_user_question") return { text: "ok", answer: { answers: [] } };
        throw new ProtocolError("UNKNOWN_ACTION", `no ${action}`);
      },
    });
    t.deliver({ id: "agentctl-1", session: "a", type: "request", action: "kandev.ask_user_question", payload: {} });
    t.deliver({ id: "agentctl-2", session: "a", type: "request", action: "kandev.other", payload: {} });
    t.deliver({ id: "agentctl-1", session: "z", type: "request", action: "kandev.ask_user_question", payload: {} });
    await new Promise((r) => setImmediate(r));
    const answers = t.sent.map((f) => [f.id, f.session, f.type, (f.payload as { code?: string }).code ?? null]);
    assert.deepEqual(answers, [
      ["agentctl-1", "z", "error", "NOT_FOUND"],
      ["agentctl-1", "a", "response", null],
      ["agentctl-2", "a", "error", "UNKNOWN_ACTION"],
    ]);
  });

  test("a lost channel rejects every pending request with NOT_CONNECTED at once, and later ones without sending", async () => {
    const { t, client } = setup();
    const pending = [client.request("a", "agent.initialize", {}), client.request("b", "agent.session.new", {})];
    t.lose(new Error("agentctl exited (code null, signal SIGKILL)"));
    for (const p of pending) await assert.rejects(p, (e: ProtocolError) => e.code === "NOT_CONNECTED" && /SIGKILL/.test(e.message));
    assert.equal(client.open, false);
    const sentBefore = t.sent.length;
    await assert.rejects(client.request("a", "agent.status", {}), (e: ProtocolError) => e.code === "NOT_CONNECTED");
    assert.equal(t.sent.length, sentBefore);
  });
});
