import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ConfigureParamsSchema } from "@kandev/protocol";
import { buildConfigureParams } from "./configure.js";

describe("buildConfigureParams", () => {
  const profile = { id: "mock", command: ["node", "agent.js"], env: null, cwd: null };

  test("carries command, profile id as agent_id and the resolved features", () => {
    const params = buildConfigureParams({ profile, features: { acpElicitation: true }, timeouts: {} });
    assert.deepEqual(params, { agent: { command: ["node", "agent.js"] }, agent_id: "mock", features: { acpElicitation: true }, timeouts: {} });
    ConfigureParamsSchema.parse(params);
  });

  test("forwards env, cwd and the timeouts that are set, in ms", () => {
    const params = buildConfigureParams({
      profile: { ...profile, env: { A: "1" }, cwd: "/tmp" },
      features: { acpElicitation: false },
      timeouts: { elicitationAnswerMs: 3_300_000, acpIdleMs: 3_600_000 },
    });
    assert.deepEqual(params.agent, { command: ["node", "agent.js"], env: { A: "1" }, cwd: "/tmp" });
    assert.deepEqual(params.timeouts, { elicitation_answer_ms: 3_300_000, acp_idle_ms: 3_600_000 });
    assert.deepEqual(params.features, { acpElicitation: false });
  });

  test("a profile made for a real agent sends its agent_id (capabilities variant), not its own id", () => {
    const params = buildConfigureParams({
      profile: { ...profile, id: "my-claude", agentId: "claude-acp" },
      features: { acpElicitation: false },
      timeouts: {},
    });
    assert.equal(params.agent_id, "claude-acp");
    assert.equal(
      buildConfigureParams({ profile: { ...profile, agentId: null }, features: { acpElicitation: false }, timeouts: {} }).agent_id,
      "mock",
    );
  });

  test("does not alias the profile's arrays", () => {
    const params = buildConfigureParams({ profile, features: { acpElicitation: false }, timeouts: {} });
    assert.notEqual(params.agent.command, profile.command);
  });
});
