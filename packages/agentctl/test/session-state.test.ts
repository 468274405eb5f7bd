// Session state end to end: built agentctl CLI -> built mock agent (MOCK_AGENT_SESSION_STATE=1),
// over real pipes: modes and config options from session/new, the agent's state updates, and the
// operator's set_mode / set_config_option round trips, including the agent refusing.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { AGENT_ACTIONS, SessionUpdateSchema, type SessionUpdate } from "@kandev/protocol";
import { killAll, MOCK_AGENT_CLI, startAgentctlProcess } from "./agentctl-process.js";
import type { StreamClient, StreamError } from "./stream-client.js";

after(killAll);

async function stateSession(env: Record<string, string> = { MOCK_AGENT_SESSION_STATE: "1" }) {
  const ctl = await startAgentctlProcess();
  const client = ctl.connect();
  await client.call("agent.configure", {
    agent: { command: [process.execPath, MOCK_AGENT_CLI], env },
    agent_id: "mock",
    features: { acpElicitation: false },
  });
  await client.call("agent.initialize", {});
  const opened = AGENT_ACTIONS["agent.session.new"].result.parse(await client.call("agent.session.new", {}));
  return { client, opened, sessionId: opened.session_id };
}

function updates(client: StreamClient, kind: string): SessionUpdate[] {
  return client
    .eventsOf("session.update")
    .map((e) => SessionUpdateSchema.parse((e.payload as { update: unknown }).update))
    .filter((u) => u.kind === kind);
}

describe("agentctl session state", () => {
  test("session/new's modes and config options come back with the session id; the commands follow as an update", async () => {
    const { client, opened } = await stateSession();
    assert.equal(opened.modes?.current_mode_id, "default");
    assert.deepEqual(
      opened.modes?.available_modes.map((m) => m.id),
      ["default", "plan", "acceptEdits", "broken"],
    );
    assert.deepEqual(opened.config_options?.[0], {
      id: "model",
      name: "Model",
      description: "The mock's model",
      category: "model",
      type: "select",
      current_value: "mock-fast",
      options: [
        { value: "mock-fast", name: "Mock Fast", description: "Quick answers" },
        { value: "mock-smart", name: "Mock Smart", description: "Careful answers" },
        { value: "mock-broken", name: "Broken (mock refuses)" },
      ],
    });
    const ev = await client.waitForEvent("session.update", {});
    assert.equal((ev.payload as { turn_id: unknown }).turn_id, null, "state outside a turn is not tagged with one");
    const [commands] = updates(client, "available_commands_update");
    assert.ok(commands?.kind === "available_commands_update");
    assert.deepEqual(commands.available_commands[0], { name: "review", description: "Review the changes so far", input_hint: "[path]" });
  });

  test("an agent that says nothing about modes answers session/new with the id alone", async () => {
    const { opened } = await stateSession({});
    assert.deepEqual(Object.keys(opened), ["session_id"]);
  });

  test("the agent's usage, title and mode switch arrive as their own update kinds", async () => {
    const { client, sessionId } = await stateSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:session-state", turn_id: "t1" });
    await client.waitForEvent("turn.ended", { turn_id: "t1" });
    assert.deepEqual(updates(client, "usage_update"), [
      { kind: "usage_update", usage: { used: 42000, size: 200000, cost: { amount: 0.42, currency: "USD" } } },
    ]);
    assert.deepEqual(updates(client, "session_info_update"), [{ kind: "session_info_update", title: "Mock session title" }]);
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:session-state switch", turn_id: "t2" });
    await client.waitForEvent("turn.ended", { turn_id: "t2" });
    assert.deepEqual(updates(client, "current_mode_update"), [{ kind: "current_mode_update", current_mode_id: "plan" }]);
  });

  test("set_mode and set_config_option round trip to the agent", async () => {
    const { client, sessionId } = await stateSession();
    assert.deepEqual(await client.call("agent.session.set_mode", { session_id: sessionId, mode_id: "plan" }), { ok: true });
    const res = AGENT_ACTIONS["agent.session.set_config_option"].result.parse(
      await client.call("agent.session.set_config_option", { session_id: sessionId, config_id: "model", value: "mock-smart" }),
    );
    assert.equal(res.config_options[0]?.current_value, "mock-smart");
  });

  test("the agent refusing is AGENT_ERROR with its own message; an unknown session is NOT_FOUND", async () => {
    const { client, sessionId } = await stateSession();
    await assert.rejects(
      client.call("agent.session.set_mode", { session_id: sessionId, mode_id: "broken" }),
      (e: StreamError) => e.code === "AGENT_ERROR" && /refuses mode broken/.test(e.message),
    );
    await assert.rejects(
      client.call("agent.session.set_mode", { session_id: sessionId, mode_id: "nope" }),
      (e: StreamError) => e.code === "AGENT_ERROR" && /unknown mode nope/.test(e.message),
    );
    await assert.rejects(
      client.call("agent.session.set_config_option", { session_id: sessionId, config_id: "temperature", value: "hot" }),
      (e: StreamError) => e.code === "AGENT_ERROR" && /unknown config option/.test(e.message),
    );
    await assert.rejects(client.call("agent.session.set_mode", { session_id: "other", mode_id: "plan" }), (e: StreamError) => e.code === "NOT_FOUND");
  });
});
