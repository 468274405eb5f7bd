// The agent stream as a transport: auth, errors, one client at a time, buffering.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { AGENT_ACTION_NAMES, notificationFrame } from "@kandev/protocol";
import { CLOSE_REPLACED, startStreamServer } from "../src/stream-server.js";
import { killAll, startAgentctlProcess, startSession, turnText } from "./agentctl-process.js";
import { StreamClient, StreamError } from "./stream-client.js";

after(killAll);

describe("agent stream over a real socket", () => {
  test("a missing or wrong token gets HTTP 401 and no socket; the right one gets 101", async () => {
    const ctl = await startAgentctlProcess();
    assert.equal(await StreamClient.probe(ctl.port, {}), 401);
    assert.equal(await StreamClient.probe(ctl.port, { authorization: "Bearer wrong" }), 401);
    assert.equal(await StreamClient.probe(ctl.port, { authorization: `Bearer ${ctl.token}x` }), 401);
    assert.equal(await StreamClient.probe(ctl.port, { authorization: `Basic ${ctl.token}` }), 401);
    assert.equal(await StreamClient.probe(ctl.port, { authorization: `Bearer ${ctl.token}` }, "/elsewhere"), 404);
    assert.equal(await StreamClient.probe(ctl.port, { authorization: `Bearer ${ctl.token}` }), 101);
  });

  test("unknown action -> UNKNOWN_ACTION", async () => {
    const ctl = await startAgentctlProcess();
    const c = await StreamClient.connect(ctl.port, ctl.token);
    const out = await c.request("agent.teleport", {});
    assert.equal(out.type, "error");
    assert.equal((out.payload as { code: string }).code, "UNKNOWN_ACTION");
  });

  test("bad params -> VALIDATION_ERROR with the failing field", async () => {
    const ctl = await startAgentctlProcess();
    const c = await StreamClient.connect(ctl.port, ctl.token);
    await assert.rejects(c.call("agent.configure", { agent: { command: [] }, features: {} }), (e: StreamError) => {
      assert.equal(e.code, "VALIDATION_ERROR");
      const paths = (e.details as { path: string }[]).map((d) => d.path);
      assert.ok(paths.includes("agent.command") && paths.includes("features.acpElicitation"), paths.join(","));
      return true;
    });
  });

  test("a malformed frame gets BAD_REQUEST and the connection keeps working", async () => {
    const ctl = await startAgentctlProcess();
    const c = await StreamClient.connect(ctl.port, ctl.token);
    c.sendRaw("{this is not json");
    const err = await c.waitFor((f) => f.type === "error", 15_000, "an error frame");
    assert.equal((err.payload as { code: string }).code, "BAD_REQUEST");
    c.sendRaw(JSON.stringify({ id: "x1", type: "bogus", action: "agent.status" }));
    const err2 = await c.waitFor((f) => f.type === "error" && f.id === "x1", 15_000, "error for x1");
    assert.equal((err2.payload as { code: string }).code, "BAD_REQUEST");
    const status = await c.call<{ configured: boolean }>("agent.status");
    assert.equal(status.configured, false);
  });

  test("every action is served (none answers UNKNOWN_ACTION)", async () => {
    const ctl = await startAgentctlProcess();
    const c = await StreamClient.connect(ctl.port, ctl.token);
    for (const action of AGENT_ACTION_NAMES) {
      const out = await c.request(action, {});
      assert.notEqual((out.payload as { code?: string }).code, "UNKNOWN_ACTION", action);
    }
  });

  test("actions before configure are refused with CONFLICT / NOT_FOUND; a second configure is CONFLICT", async () => {
    const ctl = await startAgentctlProcess();
    const c = await StreamClient.connect(ctl.port, ctl.token);
    await assert.rejects(c.call("agent.initialize", {}), (e: StreamError) => e.code === "CONFLICT");
    await assert.rejects(c.call("agent.elicitations.respond", { pending_id: "p", answers: [] }), (e: StreamError) => e.code === "NOT_FOUND" || e.code === "VALIDATION_ERROR");
    // A command that cannot start is refused and leaves agentctl unconfigured, so it can be retried.
    await assert.rejects(
      c.call("agent.configure", { agent: { command: ["/definitely/not/an/agent"] }, features: { acpElicitation: false } }),
      (e: StreamError) => e.code === "BAD_REQUEST" && /cannot start agent command/.test(e.message),
    );
    const { client } = await startSession();
    await assert.rejects(
      client.call("agent.configure", { agent: { command: ["x"] }, features: { acpElicitation: false } }),
      (e: StreamError) => e.code === "CONFLICT",
    );
  });

  test("configure timeouts with answer >= idle -> VALIDATION_ERROR, nothing spawned", async () => {
    const ctl = await startAgentctlProcess();
    const c = await StreamClient.connect(ctl.port, ctl.token);
    await assert.rejects(
      c.call("agent.configure", {
        agent: { command: [process.execPath, "-e", "0"] },
        features: { acpElicitation: false },
        timeouts: { elicitation_answer_ms: 60_000, acp_idle_ms: 60_000 },
      }),
      (e: StreamError) => e.code === "VALIDATION_ERROR" && /strictly below/.test(e.message),
    );
    const status = await c.call<{ configured: boolean; agent_running: boolean }>("agent.status");
    assert.deepEqual([status.configured, status.agent_running], [false, false]);
  });

  test("a new connection replaces the old one; events missed while away arrive on the new one, in order", async () => {
    const { ctl, client: a, sessionId } = await startSession();
    const b = await StreamClient.connect(ctl.port, ctl.token);
    const closedA = await a.closed;
    assert.equal(closedA.code, CLOSE_REPLACED);
    // B drives a turn, then leaves right after the prompt is accepted.
    await b.call("agent.prompt", { session_id: sessionId, text: "/e2e:echo buffered while nobody listens", turn_id: "t1" });
    await b.close();
    const c = await StreamClient.connect(ctl.port, ctl.token);
    await c.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "end_turn" });
    // Events are numbered; C also gets B's last few again (replay), so a client keeps each number
    // once. Whatever B got live plus what C got (buffered, replayed or live) is the whole text,
    // once, in order.
    const seen = new Set<string>();
    const text = [...b.events, ...c.events]
      .filter((e) => {
        assert.match(e.id ?? "", /^e-\d+$/, "every event is numbered");
        if (seen.has(e.id!)) return false;
        seen.add(e.id!);
        return e.action === "session.update";
      })
      .map((e) => e.payload as { turn_id: string | null; update: { kind: string; text?: string } })
      .filter((p) => p.turn_id === "t1" && p.update.kind === "agent_message_chunk")
      .map((p) => p.update.text)
      .join("");
    assert.equal(text, "buffered while nobody listens");
    assert.ok(turnText(c, "t1").length > 0, "the new client received the missed chunks");
    assert.equal(a.eventsOf("session.update").length, 0);
  });

  test("events sent as the old socket died are replayed on the next connection, numbered, so none is lost", async () => {
    const s = await startSession({ features: { acpElicitation: true } });
    await s.client.call("agent.prompt", { session_id: s.sessionId, text: "/e2e:elicit-ask", turn_id: "t1" });
    const requested = await s.client.waitForEvent("elicitation.requested");
    const pendingId = (requested.payload as { pending_id: string }).pending_id;
    // The answer goes out and the socket dies in the same tick: agentctl handles the frame and
    // emits on a socket whose peer is gone before it sees the close.
    s.client.sendRaw(JSON.stringify({ id: "r-1", type: "request", action: "agent.elicitations.respond", payload: { pending_id: pendingId, answers: [] } }));
    (s.client as unknown as { ws: { terminate(): void } }).ws.terminate();
    const c = await StreamClient.connect(s.ctl.port, s.ctl.token);
    const settled = await c.waitForEvent("elicitation.settled", { pending_id: pendingId }, 15_000);
    assert.equal((settled.payload as { outcome: string }).outcome, "answered");
    await c.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "end_turn" });
    const ids = c.events.map((e) => Number(e.id!.slice(2)));
    assert.deepEqual(ids, [...ids].sort((x, y) => x - y), "in order");
  });
});

describe("stream server buffering (in-process, exact interleaving)", () => {
  test("events emitted with no client are flushed in order on connect; the buffer keeps the newest", async () => {
    const server = await startStreamServer({ host: "127.0.0.1", port: 0, token: "tok", onFrame: () => {}, bufferLimit: 3 });
    try {
      for (let i = 1; i <= 5; i += 1) server.emit(notificationFrame("agent.stderr", { text: `line ${i}` }));
      const c = await StreamClient.connect(server.port, "tok");
      server.emit(notificationFrame("agent.stderr", { text: "line 6" }));
      await c.waitFor((e) => (e.payload as { text: string }).text === "line 6", 15_000, "line 6");
      assert.deepEqual(
        c.events.map((e) => (e.payload as { text: string }).text),
        ["line 3", "line 4", "line 5", "line 6"],
      );
      await c.close();
    } finally {
      await server.close();
    }
  });

  test("frames over the size limit close the socket instead of being parsed", async () => {
    const server = await startStreamServer({ host: "127.0.0.1", port: 0, token: "tok", onFrame: () => {}, maxFrameBytes: 1024 });
    try {
      const c = await StreamClient.connect(server.port, "tok");
      c.sendRaw("x".repeat(4096));
      const closed = await c.closed;
      assert.equal(closed.code, 1009);
    } finally {
      await server.close();
    }
  });
});
