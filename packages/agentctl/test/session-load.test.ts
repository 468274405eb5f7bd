// agent.session.load end to end: built agentctl CLI -> a real ACP agent that can load sessions
// (test/agents/resumable-agent.mjs), over a real WebSocket, across two agentctl processes.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { killAll, startAgentctlProcess, startSession, tempDir, turnText } from "./agentctl-process.js";
import type { StreamError } from "./stream-client.js";

after(killAll);

const RESUMABLE_AGENT = fileURLToPath(new URL("./agents/resumable-agent.mjs", import.meta.url));

/** A fresh agentctl running the resumable agent over `store`, configured and initialized. */
async function resumableAgentctl(store: string) {
  const ctl = await startAgentctlProcess();
  const client = ctl.connect();
  await client.call("agent.configure", {
    agent: { command: [process.execPath, RESUMABLE_AGENT], env: { RESUMABLE_AGENT_STORE: store } },
    features: { acpElicitation: false },
  });
  const init = await client.call<{ agent_capabilities: Record<string, unknown> }>("agent.initialize", {});
  return { ctl, client, init };
}

describe("agent.session.load", () => {
  test("a second agentctl loads the first one's session: the agent remembers, the replayed history is not emitted", async () => {
    const store = path.join(tempDir(), "sessions.json");
    const first = await resumableAgentctl(store);
    assert.equal(first.init.agent_capabilities.loadSession, true);
    const { session_id } = await first.client.call<{ session_id: string }>("agent.session.new", {});
    await first.client.call("agent.prompt", { session_id, text: "remember the cat", turn_id: "t1" });
    await first.client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "end_turn" });
    assert.equal(turnText(first.client, "t1"), "turn 1; earlier: (none)");
    first.ctl.kill();
    await first.ctl.exited;

    const second = await resumableAgentctl(store);
    const loaded = await second.client.call<{ session_id: string }>("agent.session.load", { session_id });
    assert.deepEqual(loaded, { session_id });
    const status = await second.client.call<{ session_id: string | null }>("agent.status");
    assert.equal(status.session_id, session_id);
    await second.client.call("agent.prompt", { session_id, text: "what was it?", turn_id: "t2" });
    await second.client.waitForEvent("turn.ended", { turn_id: "t2", stop_reason: "end_turn" });
    assert.equal(turnText(second.client, "t2"), "turn 2; earlier: remember the cat");
    const texts = second.client.eventsOf("session.update").map((e) => JSON.stringify(e.payload));
    assert.ok(!texts.some((t) => t.includes("(replay)")), `history replayed during load must not be emitted: ${texts.join("\n")}`);
  });

  test("an unknown session id fails with the agent's error and opens nothing", async () => {
    const { client } = await resumableAgentctl(path.join(tempDir(), "sessions.json"));
    await assert.rejects(
      client.call("agent.session.load", { session_id: "nope" }),
      (e: StreamError) => e.code === "INTERNAL_ERROR" && /session\/load/.test(e.message),
    );
    await assert.rejects(client.call("agent.prompt", { session_id: "nope", text: "hi", turn_id: "t1" }), (e: StreamError) => e.code === "NOT_FOUND");
  });

  test("an agent without loadSession (the mock agent) -> CONFLICT, nothing sent; before configure -> NOT_FOUND", async () => {
    const { client } = await startSession();
    await assert.rejects(
      client.call("agent.session.load", { session_id: "x" }),
      (e: StreamError) => e.code === "CONFLICT" && /loadSession/.test(e.message),
    );
    const ctl = await startAgentctlProcess();
    const bare = ctl.connect();
    await assert.rejects(bare.call("agent.session.load", { session_id: "x" }), (e: StreamError) => e.code === "NOT_FOUND");
    await assert.rejects(bare.call("agent.session.load", {}), (e: StreamError) => e.code === "NOT_FOUND");
  });
});
