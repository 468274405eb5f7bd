// Turns end to end: built agentctl CLI -> built mock agent, driven over a real WebSocket.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { AGENT_EVENTS, type AgentEventName, type Envelope } from "@kandev/protocol";
import { killAll, startSession, turnText } from "./agentctl-process.js";
import type { StreamError } from "./stream-client.js";

after(killAll);

/** Every event must satisfy its protocol schema: the backend parses them with the same schemas. */
function assertEventsValid(events: Envelope[]): void {
  for (const e of events) {
    const schema = AGENT_EVENTS[e.action as AgentEventName];
    assert.ok(schema !== undefined, `unknown event ${e.action}`);
    schema.parse(e.payload);
  }
}

function frameLog(file: string): { dir: string; frame: { method?: string; id?: unknown; params?: unknown; result?: unknown } }[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l));
}

describe("agentctl turns", () => {
  test("echo streams chunks tagged with the turn, then turn.ended end_turn", async () => {
    const { client, sessionId } = await startSession();
    const res = await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:echo hello streaming world", turn_id: "t1" });
    assert.deepEqual(res, { turn_id: "t1" });
    const ended = await client.waitForEvent("turn.ended", { turn_id: "t1" });
    assert.deepEqual(ended.payload, { session_id: sessionId, turn_id: "t1", stop_reason: "end_turn" });
    const actions = client.events.map((e) => e.action);
    assert.ok(actions.indexOf("turn.started") < actions.indexOf("session.update"));
    assert.equal(actions.lastIndexOf("session.update") < actions.indexOf("turn.ended"), true, "no update after turn.ended");
    const chunks = client.eventsOf("session.update");
    assert.ok(chunks.length >= 3, `expected several chunks, got ${chunks.length}`);
    assert.equal(turnText(client, "t1"), "hello streaming world");
    assertEventsValid(client.events);
  });

  test("initialize advertises buildClientCapabilities and the agent received exactly that", async () => {
    const { initResult, logFile } = await startSession();
    assert.equal(initResult.protocol_version, 1);
    assert.equal(initResult.agent_name, "kandev-mock-agent");
    const init = frameLog(logFile).find((l) => l.dir === "in" && l.frame.method === "initialize");
    assert.deepEqual((init?.frame.params as { clientCapabilities: unknown } | undefined)?.clientCapabilities, initResult.client_capabilities);
  });

  test("tool-call maps tool_call and tool_call_update", async () => {
    const { client, sessionId } = await startSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:tool-call Read the plan", turn_id: "t1" });
    await client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "end_turn" });
    const updates = client.eventsOf("session.update").map((e) => (e.payload as { update: Record<string, unknown> }).update);
    assert.equal(updates[0]?.kind, "tool_call");
    assert.equal(updates[0]?.title, "Read the plan");
    assert.equal(updates[0]?.status, "pending");
    assert.equal(updates[0]?.tool_kind, "read");
    assert.deepEqual(updates[1], { kind: "tool_call_update", tool_call_id: updates[0]?.tool_call_id, status: "completed" });
    assert.equal(turnText(client, "t1"), "Tool call finished.");
    assertEventsValid(client.events);
  });

  test("permission: announced, answered via agent.permissions.respond, settled", async () => {
    const { client, sessionId } = await startSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:permission", turn_id: "t1" });
    const asked = (await client.waitForEvent("permission.requested")).payload as {
      pending_id: string;
      options: { option_id: string; kind: string }[];
      session_id: string;
    };
    assert.equal(asked.session_id, sessionId);
    assert.deepEqual(
      asked.options.map((o) => o.kind),
      ["allow_once", "reject_once"],
    );
    const status = await client.call<{ pending_permissions: number; turn_active: boolean }>("agent.status");
    assert.equal(status.pending_permissions, 1);
    assert.equal(status.turn_active, true);
    // Bad answers are refused and lose nothing: the request stays pending.
    await assert.rejects(
      client.call("agent.permissions.respond", { pending_id: asked.pending_id, option_id: "maybe" }),
      (e: StreamError) => e.code === "VALIDATION_ERROR",
    );
    await assert.rejects(
      client.call("agent.permissions.respond", { pending_id: "nope", option_id: "allow-once" }),
      (e: StreamError) => e.code === "NOT_FOUND",
    );
    assert.deepEqual(await client.call("agent.permissions.respond", { pending_id: asked.pending_id, option_id: "allow-once" }), { success: true });
    const settled = await client.waitForEvent("permission.settled", { pending_id: asked.pending_id });
    assert.deepEqual(settled.payload, { pending_id: asked.pending_id, outcome: "selected", option_id: "allow-once", reason: "operator" });
    await client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "end_turn" });
    assert.equal(turnText(client, "t1"), "Permission granted: allow-once");
    await assert.rejects(
      client.call("agent.permissions.respond", { pending_id: asked.pending_id, option_id: "allow-once" }),
      (e: StreamError) => e.code === "NOT_FOUND",
    );
    assertEventsValid(client.events);
  });

  test("permission: auto_approve_permissions picks the first allow option without asking", async () => {
    const { client, sessionId } = await startSession({ auto_approve_permissions: true });
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:permission", turn_id: "t1" });
    await client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "end_turn" });
    assert.equal(turnText(client, "t1"), "Permission granted: allow-once");
    assert.equal(client.eventsOf("permission.requested").length, 0);
  });

  test("agent.cancel during a pending permission settles it and the turn ends cancelled", async () => {
    const { client, sessionId } = await startSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:permission", turn_id: "t1" });
    const asked = (await client.waitForEvent("permission.requested")).payload as { pending_id: string };
    await client.call("agent.cancel", { session_id: sessionId });
    const settled = await client.waitForEvent("permission.settled", { pending_id: asked.pending_id });
    assert.deepEqual(settled.payload, { pending_id: asked.pending_id, outcome: "cancelled", reason: "turn_cancelled" });
    await client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "cancelled" });
  });

  test("slow + agent.cancel -> turn.ended cancelled well before the 5 s script ends", async () => {
    const { client, sessionId, logFile } = await startSession();
    const t0 = Date.now();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:slow", turn_id: "t1" });
    await client.waitFor((e) => e.action === "session.update" && client.eventsOf("session.update").length >= 2, 15_000, "two ticks");
    assert.deepEqual(await client.call("agent.cancel", { session_id: sessionId }), { ok: true });
    const ended = await client.waitForEvent("turn.ended", { turn_id: "t1" });
    assert.equal((ended.payload as { stop_reason: string }).stop_reason, "cancelled");
    assert.ok(Date.now() - t0 < 4000);
    assert.equal(frameLog(logFile).filter((l) => l.dir === "in" && l.frame.method === "session/cancel").length, 1);
    // The session is usable again after a cancel.
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:plain", turn_id: "t2" });
    await client.waitForEvent("turn.ended", { turn_id: "t2", stop_reason: "end_turn" });
  });

  test("a second prompt while one runs -> CONFLICT; the running turn is untouched", async () => {
    const { client, sessionId } = await startSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:slow", turn_id: "t1" });
    await assert.rejects(
      client.call("agent.prompt", { session_id: sessionId, text: "again", turn_id: "t2" }),
      (e: StreamError) => e.code === "CONFLICT",
    );
    await client.call("agent.cancel", { session_id: sessionId });
    await client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "cancelled" });
    assert.equal(client.eventsOf("turn.started").length, 1);
  });

  test("prompt for an unknown session -> NOT_FOUND", async () => {
    const { client } = await startSession();
    await assert.rejects(client.call("agent.prompt", { session_id: "nope", text: "x", turn_id: "t1" }), (e: StreamError) => e.code === "NOT_FOUND");
  });

  test("crash -> turn.ended error, then agent.exited with the stderr tail; agentctl stays up", async () => {
    const { client, sessionId } = await startSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:crash", turn_id: "t1" });
    const exited = await client.waitForEvent("agent.exited");
    const exitPayload = exited.payload as { code: number | null; signal: string | null; stderr_tail: string };
    assert.equal(exitPayload.code, 3);
    assert.equal(exitPayload.signal, null);
    assert.match(exitPayload.stderr_tail, /mock-agent: crashing on purpose/);
    const ended = client.eventsOf("turn.ended");
    assert.equal(ended.length, 1);
    const endedPayload = ended[0]!.payload as { stop_reason: string; error?: { code: string; message: string } };
    assert.equal(endedPayload.stop_reason, "error");
    assert.equal(endedPayload.error?.code, "AGENT_EXITED");
    assert.ok(client.events.indexOf(ended[0]!) < client.events.indexOf(exited), "turn.ended comes before agent.exited");
    assert.ok(client.eventsOf("agent.stderr").some((e) => (e.payload as { text: string }).text === "mock-agent: crashing on purpose"));
    assert.equal(turnText(client, "t1"), "about to crash");
    const status = await client.call<{ agent_running: boolean; turn_active: boolean; agent_pid: number | null }>("agent.status");
    assert.deepEqual([status.agent_running, status.turn_active, status.agent_pid], [false, false, null]);
    await assert.rejects(client.call("agent.prompt", { session_id: sessionId, text: "x", turn_id: "t2" }), (e: StreamError) => e.code === "CONFLICT");
    assertEventsValid(client.events);
  });

  test("a turn with no ACP traffic for acp_idle_ms ends with ACP_IDLE_TIMEOUT and the agent is told to cancel", async () => {
    const { client, sessionId, logFile } = await startSession({ timeouts: { elicitation_answer_ms: 100, acp_idle_ms: 400 } });
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:hang", turn_id: "t1" });
    const ended = await client.waitForEvent("turn.ended", { turn_id: "t1" }, 15_000);
    const p = ended.payload as { stop_reason: string; error?: { code: string } };
    assert.equal(p.stop_reason, "error");
    assert.equal(p.error?.code, "ACP_IDLE_TIMEOUT");
    // The agent answers the cancel late; that answer must not produce a second turn.ended.
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:plain", turn_id: "t2" });
    await client.waitForEvent("turn.ended", { turn_id: "t2", stop_reason: "end_turn" });
    assert.equal(client.eventsOf("turn.ended").filter((e) => (e.payload as { turn_id: string }).turn_id === "t1").length, 1);
    assert.equal(frameLog(logFile).filter((l) => l.dir === "in" && l.frame.method === "session/cancel").length, 1);
  });

  test("MOCK_AGENT_LOG holds exactly one session/prompt per turn", async () => {
    const { client, sessionId, logFile } = await startSession();
    for (const turnId of ["t1", "t2", "t3"]) {
      await client.call("agent.prompt", { session_id: sessionId, text: `/e2e:echo turn ${turnId}`, turn_id: turnId });
      await client.waitForEvent("turn.ended", { turn_id: turnId, stop_reason: "end_turn" });
    }
    const prompts = frameLog(logFile).filter((l) => l.dir === "in" && l.frame.method === "session/prompt");
    assert.equal(prompts.length, 3);
    assert.deepEqual(
      prompts.map((p) => (p.frame.params as { prompt: { text: string }[] }).prompt[0]?.text),
      ["/e2e:echo turn t1", "/e2e:echo turn t2", "/e2e:echo turn t3"],
    );
  });
});
