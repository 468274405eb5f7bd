import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { AgentPresetSchema } from "@kandev/protocol";
import type { Resolution } from "./executable.js";
import { CLAUDE_BRIDGE_PACKAGE, PRESET_IDS, buildPresets, findPreset, installHintFor, type PresetContext } from "./presets.js";

/** Only the given files resolve; bare names resolve as /usr/bin/<name>. */
function ctx(existing: string[], searchDirs = ["/board"]): PresetContext {
  return {
    searchDirs,
    resolve: (file): Resolution => {
      const full = file.includes("/") ? file : `/usr/bin/${file}`;
      return existing.includes(full) ? { ok: true, path: full } : { ok: false, reason: "missing", file, searched: [full] };
    },
  };
}

describe("agent presets", () => {
  test("every preset passes its wire schema and names env vars, never values", () => {
    const presets = buildPresets(ctx([]));
    assert.deepEqual(
      presets.map((p) => p.id),
      [...PRESET_IDS],
    );
    for (const p of presets) {
      AgentPresetSchema.parse(p);
      for (const name of p.env_hints) assert.match(name, /^[A-Z][A-Z0-9_]*$/, `${p.id}: ${name} is a variable name`);
    }
    assert.equal(new Set(PRESET_IDS).size, PRESET_IDS.length, "ids are unique");
  });

  test("the Claude bridge comes as a local install and via npx, both with agent_id claude-acp and ANTHROPIC_API_KEY", () => {
    const local = findPreset("claude-acp-local", ctx([]))!;
    const npx = findPreset("claude-acp-npx", ctx([]))!;
    assert.deepEqual(npx.command, ["npx", "-y", `${CLAUDE_BRIDGE_PACKAGE}@latest`]);
    for (const p of [local, npx]) {
      assert.equal(p.agent_id, "claude-acp");
      assert.deepEqual(p.env_hints, ["ANTHROPIC_API_KEY"]);
    }
  });

  test("local Claude: the board's node_modules/.bin wins, a configured folder before it, then PATH", () => {
    const inBoard = "/board/node_modules/.bin/claude-agent-acp";
    const inConfigured = "/agents/node_modules/.bin/claude-agent-acp";
    assert.deepEqual(findPreset("claude-acp-local", ctx([inBoard, "/usr/bin/claude-agent-acp"]))!.command, [inBoard]);
    assert.deepEqual(findPreset("claude-acp-local", ctx([inBoard, inConfigured], ["/agents", "/board"]))!.command, [inConfigured]);
    const onPath = findPreset("claude-acp-local", ctx(["/usr/bin/claude-agent-acp"]))!;
    assert.deepEqual([onPath.command, onPath.available, onPath.unavailable_reason], [["claude-agent-acp"], true, undefined]);
  });

  test("nothing installed: unavailable, with a reason that says where it looked and how to install", () => {
    const p = findPreset("claude-acp-local", ctx([]))!;
    assert.equal(p.available, false);
    assert.deepEqual(p.command, ["claude-agent-acp"]);
    assert.match(p.unavailable_reason!, /claude-agent-acp was not found \(\/board\/node_modules\/\.bin\/claude-agent-acp or on PATH\)/);
    assert.match(p.unavailable_reason!, /npm install -g @agentclientprotocol\/claude-agent-acp/);
    const gemini = findPreset("gemini", ctx([]))!;
    assert.deepEqual([gemini.command, gemini.available], [["gemini", "--experimental-acp"], false]);
    assert.match(gemini.unavailable_reason!, /gemini was not found \(on PATH\)\. Install: npm install -g @google\/gemini-cli/);
  });

  test("npx and gemini are available when their executables resolve", () => {
    assert.equal(findPreset("claude-acp-npx", ctx(["/usr/bin/npx"]))!.available, true);
    assert.equal(findPreset("gemini", ctx(["/usr/bin/gemini"]))!.available, true);
  });

  test("unknown preset id -> undefined", () => {
    assert.equal(findPreset("nope", ctx([])), undefined);
  });
});

describe("installHintFor", () => {
  test("known executables by name, wherever they live; npx/npm point at Node.js; others have none", () => {
    assert.match(installHintFor(["claude-agent-acp"])!, /@agentclientprotocol\/claude-agent-acp/);
    assert.match(installHintFor(["/x/node_modules/.bin/claude-agent-acp", "--flag"])!, /@agentclientprotocol\/claude-agent-acp/);
    assert.match(installHintFor(["gemini", "--experimental-acp"])!, /@google\/gemini-cli/);
    assert.match(installHintFor(["npx", "-y", "whatever"])!, /Node\.js/);
    assert.equal(installHintFor(["my-own-agent"]), undefined);
    assert.equal(installHintFor([]), undefined);
  });
});
