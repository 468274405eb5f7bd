import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { AgentProfile } from "@kandev/protocol";
import { editState, isMaskedValue, profilePatch } from "./profile-edit";

const profile: AgentProfile = {
  id: "claude",
  name: "Claude",
  command: ["npx", "-y", "@agentclientprotocol/claude-agent-acp@latest"],
  env: { ANTHROPIC_API_KEY: "sk-secret", DEBUG: "1" },
  cwd: "/work",
  builtin: false,
  problems: [],
  created_at: "2026-01-01T00:00:00.000Z",
};

describe("profilePatch", () => {
  test("the form starts from the profile without any secret value in it", () => {
    const state = editState(profile);
    assert.equal(state.command, "npx\n-y\n@agentclientprotocol/claude-agent-acp@latest");
    assert.deepEqual(state.env, { ANTHROPIC_API_KEY: { mode: "keep" }, DEBUG: { mode: "keep" } });
    assert.doesNotMatch(JSON.stringify(state), /sk-secret/);
  });

  test("nothing changed: an empty patch (every variable kept by leaving it out)", () => {
    assert.deepEqual(profilePatch(profile, editState(profile)), { body: {} });
  });

  test("sends only what changed: name, command, a cleared cwd, a replaced key, a removed one and a new one", () => {
    const state = {
      ...editState(profile),
      name: " Claude (work) ",
      command: "claude-agent-acp",
      cwd: " ",
      env: { ANTHROPIC_API_KEY: { mode: "replace" as const, value: "sk-new" }, DEBUG: { mode: "remove" as const } },
      added: "NEW=1",
    };
    assert.deepEqual(profilePatch(profile, state), {
      body: { name: "Claude (work)", command: ["claude-agent-acp"], cwd: null, env: { ANTHROPIC_API_KEY: "sk-new", DEBUG: null, NEW: "1" } },
    });
  });

  test("a blank name, an empty command and a bad env line are all reported", () => {
    const result = profilePatch(profile, { ...editState(profile), name: " ", command: "\n", added: "oops" });
    assert.deepEqual("problems" in result && result.problems.map((p) => p.field), ["name", "command", "env"]);
  });
});

describe('masked env values (issue 34: the board answers with "********")', () => {
  const masked: AgentProfile = { ...profile, env: { ANTHROPIC_API_KEY: "********", DEBUG: "********" } };

  test("a masked value is recognised as set but hidden; a real value or none is not", () => {
    assert.equal(isMaskedValue("********"), true);
    assert.equal(isMaskedValue("sk-secret"), false);
    assert.equal(isMaskedValue(undefined), false);
  });

  test("saving without touching a masked variable sends nothing for it, so the board keeps the value", () => {
    const state = editState(masked);
    const result = profilePatch(masked, { ...state, name: "Renamed" });
    assert.deepEqual(result, { body: { name: "Renamed" } });
    assert.doesNotMatch(JSON.stringify(result), /\*{8}/);
  });

  test("replacing or removing a masked variable sends the new value or null, never the mask", () => {
    const state = editState(masked);
    const result = profilePatch(masked, {
      ...state,
      env: { ANTHROPIC_API_KEY: { mode: "replace", value: "sk-new" }, DEBUG: { mode: "remove" } },
    });
    assert.deepEqual(result, { body: { env: { ANTHROPIC_API_KEY: "sk-new", DEBUG: null } } });
  });
});
