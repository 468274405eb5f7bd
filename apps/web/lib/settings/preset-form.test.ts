import assert from "node:assert/strict";
import { test } from "node:test";
import type { AgentPreset } from "@kandev/protocol";
import {
  describeFailure,
  emptyPresetForm,
  fieldErrors,
  fieldForPath,
  formatCommand,
  presetBody,
  presetView,
  type PresetFailure,
  type PresetField,
  type RequestFailure,
} from "./preset-form";

const claude: AgentPreset = {
  id: "claude-acp-local",
  name: "Claude (installed bridge)",
  description: "Claude through the bridge installed here.",
  command: ["agents/node_modules/.bin/claude-agent-acp"],
  env_hints: ["ANTHROPIC_API_KEY"],
  available: true,
  agent_id: "claude-acp",
  install_hint: "npm install -g @agentclientprotocol/claude-agent-acp",
};
const goose: AgentPreset = {
  id: "goose",
  name: "goose",
  description: "goose in ACP mode.",
  command: ["goose", "acp"],
  env_hints: [],
  available: false,
  unavailable_reason: "goose was not found (on PATH). Install: Install goose (see the docs)",
  agent_id: "goose",
  install_hint: "Install goose (see the docs)",
};
const gemini: AgentPreset = {
  ...goose,
  id: "gemini",
  name: "Gemini CLI",
  command: ["gemini", "--experimental-acp"],
  env_hints: ["GEMINI_API_KEY", "GEMINI_MODEL"],
  unavailable_reason: "gemini was not found.",
  install_hint: "npm install -g @google/gemini-cli",
};
const presets = [claude, goose, gemini];

const failure = (over: Partial<RequestFailure>): RequestFailure => ({
  status: 400,
  code: "VALIDATION_ERROR",
  message: "invalid",
  fieldProblems: [],
  ...over,
});

test("formatCommand keeps plain arguments bare and quotes the ones that would split or vanish", () => {
  assert.equal(formatCommand(["npx", "-y", "@agentclientprotocol/claude-agent-acp@latest"]), "npx -y @agentclientprotocol/claude-agent-acp@latest");
  assert.equal(formatCommand(["my agents/run", "--say", 'a "b"', ""]), '"my agents/run" --say "a \\"b\\"" ""');
});

test("presetView shows an available preset without reason or hint", () => {
  assert.deepEqual(presetView(claude), {
    id: "claude-acp-local",
    name: "Claude (installed bridge)",
    description: "Claude through the bridge installed here.",
    commandText: "agents/node_modules/.bin/claude-agent-acp",
    available: true,
    envHints: ["ANTHROPIC_API_KEY"],
  });
});

test("presetView gives an unavailable preset its reason, and the install hint only when the reason lacks it", () => {
  const g = presetView(goose);
  assert.equal(g.available, false);
  assert.equal(g.reason, goose.unavailable_reason);
  assert.equal(g.installHint, undefined, "the reason already says how to install");
  const m = presetView(gemini);
  assert.equal(m.reason, "gemini was not found.");
  assert.equal(m.installHint, "npm install -g @google/gemini-cli");
  const bare = presetView({ ...gemini, unavailable_reason: undefined });
  assert.equal(bare.reason, undefined);
  assert.equal(bare.installHint, "npm install -g @google/gemini-cli");
});

test("presetBody sends only the preset id when nothing else is filled in", () => {
  assert.deepEqual(presetBody({ ...emptyPresetForm(), presetId: "goose", id: " ", name: "  ", cwd: "" }, presets), {
    body: { preset_id: "goose" },
  });
});

test("presetBody trims every field, leaves out empty env values and sends only the chosen preset's variables", () => {
  const state = {
    presetId: "gemini",
    id: " my-gemini ",
    name: " Gemini at work ",
    cwd: " projects/app ",
    // ANTHROPIC_API_KEY was typed for another preset before switching: it must not leak into this one.
    env: { GEMINI_API_KEY: "  secret-1 ", GEMINI_MODEL: "   ", ANTHROPIC_API_KEY: "sk-ant-other" },
  };
  assert.deepEqual(presetBody(state, presets), {
    body: { preset_id: "gemini", id: "my-gemini", name: "Gemini at work", env: { GEMINI_API_KEY: "secret-1" }, cwd: "projects/app" },
  });
  assert.deepEqual(presetBody({ ...state, presetId: "claude-acp-local" }, presets), {
    body: { preset_id: "claude-acp-local", id: "my-gemini", name: "Gemini at work", env: { ANTHROPIC_API_KEY: "sk-ant-other" }, cwd: "projects/app" },
  });
});

test("presetBody reports a missing preset, a malformed id and a control character all at once, naming no value", () => {
  const result = presetBody({ presetId: "gone", id: "My Agent", name: "", cwd: "", env: { GEMINI_API_KEY: "x" } }, presets);
  assert.deepEqual(result, {
    problems: [
      { field: "preset", kind: "missing" },
      { field: "id", kind: "format" },
    ],
  });
  const control = presetBody({ ...emptyPresetForm(), presetId: "gemini", env: { GEMINI_API_KEY: "ab\ncd", GEMINI_MODEL: "x\u0000" } }, presets);
  assert.deepEqual(control, {
    problems: [
      { field: "env.GEMINI_API_KEY", kind: "control" },
      { field: "env.GEMINI_MODEL", kind: "control" },
    ],
  });
  assert.ok(!JSON.stringify(control).includes("ab"), "a secret never appears in a problem");
});

test("presetBody applies the API's own id rule", () => {
  const ok = (id: string) => "body" in presetBody({ ...emptyPresetForm(), presetId: "goose", id }, presets);
  for (const id of ["claude", "a", "claude_2-b", "0x", "a".repeat(64)]) assert.ok(ok(id), id);
  for (const id of ["Claude", "-a", "_a", "a b", "a/b", "a".repeat(65), "é"]) assert.ok(!ok(id), id);
});

test("fieldForPath maps API detail paths to controls and knows only the variables that were sent", () => {
  assert.equal(fieldForPath("id", []), "id");
  assert.equal(fieldForPath("name", []), "name");
  assert.equal(fieldForPath("cwd", []), "cwd");
  assert.equal(fieldForPath("preset_id", []), "preset");
  assert.equal(fieldForPath("env.API_KEY", ["API_KEY"]), "env.API_KEY");
  assert.equal(fieldForPath("env.OTHER", ["API_KEY"]), undefined);
  assert.equal(fieldForPath("env", ["API_KEY"]), undefined);
  assert.equal(fieldForPath("", []), undefined);
});

test("describeFailure tells a duplicate id, a network failure, field problems and anything else apart", () => {
  const body = { preset_id: "claude-acp-local", id: "claude", env: { ANTHROPIC_API_KEY: "sk-ant-secret" } };
  assert.deepEqual(describeFailure(failure({ status: 409, code: "CONFLICT", message: "agent profile claude already exists" }), body), {
    kind: "duplicate",
    id: "claude",
  });
  assert.deepEqual(describeFailure(failure({ status: 0, code: "NETWORK", message: "Failed to fetch" }), body), { kind: "network" });
  assert.deepEqual(
    describeFailure(
      failure({
        fieldProblems: [
          { path: "name", message: "Too big: expected string to have <=200 characters" },
          { path: "env.ANTHROPIC_API_KEY", message: "Invalid input" },
          { path: "extra", message: "Unrecognized key" },
          { path: "", message: "Body must be an object" },
        ],
      }),
      body,
    ),
    {
      kind: "validation",
      fields: [
        { field: "name", message: "Too big: expected string to have <=200 characters" },
        { field: "env.ANTHROPIC_API_KEY", message: "Invalid input" },
      ],
      other: ["extra: Unrecognized key", "Body must be an object"],
    },
  );
  assert.deepEqual(describeFailure(failure({ message: "bad body" }), body), { kind: "other", message: "bad body" });
  assert.deepEqual(describeFailure(failure({ status: 500, code: "INTERNAL_ERROR", message: "boom" }), body), { kind: "other", message: "boom" });
  // Without an id of ours, a 409 is not about the id field.
  assert.deepEqual(describeFailure(failure({ status: 409, code: "CONFLICT", message: "taken" }), { preset_id: "goose" }), {
    kind: "other",
    message: "taken",
  });
});

test("fieldErrors puts this submit's problems first, then the board's, and drops fields edited since", () => {
  const none = new Set<PresetField>();
  assert.deepEqual([...fieldErrors([], null, none)], []);
  assert.deepEqual(
    [
      ...fieldErrors(
        [
          { field: "id", kind: "format" },
          { field: "env.K", kind: "control" },
        ],
        null,
        none,
      ),
    ],
    [
      ["id", { key: "idFormat" }],
      ["env.K", { key: "envControl" }],
    ],
  );
  assert.deepEqual([...fieldErrors([{ field: "preset", kind: "missing" }], null, none)], [["preset", { key: "presetMissing" }]]);
  const dup = { kind: "duplicate", id: "claude" } as const;
  assert.deepEqual([...fieldErrors([], dup, none)], [["id", { key: "idTaken" }]]);
  assert.deepEqual([...fieldErrors([], dup, new Set<PresetField>(["id"]))], [], "a changed id is no longer marked taken");
  const invalid: PresetFailure = {
    kind: "validation",
    fields: [
      { field: "name", message: "too long" },
      { field: "name", message: "second" },
    ],
    other: [],
  };
  assert.deepEqual([...fieldErrors([], invalid, none)], [["name", { text: "too long" }]]);
  assert.deepEqual([...fieldErrors([], invalid, new Set<PresetField>(["cwd"]))], [["name", { text: "too long" }]]);
  assert.deepEqual([...fieldErrors([], { kind: "network" }, none)], []);
});
