// Presets for real ACP agents over REST, against a real file system: a "local install" of the
// Claude bridge is a node_modules/.bin/claude-agent-acp script (running the mock agent) in a folder
// the board is told about; PATH is an empty folder so nothing else resolves.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { AgentPresetSchema, type AgentActionParams, type AgentPreset, type AgentProfile } from "@kandev/protocol";
import { api, createTask, getMessages, repoRoot, startTestServer, tempDir, waitForTaskState } from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe("agent presets", () => {
  let server: Server;
  let base: string;
  const dir = tempDir();
  const agentDir = path.join(dir, "agents");
  const bridge = path.join(agentDir, "node_modules", ".bin", "claude-agent-acp");
  const configures: Array<AgentActionParams<"agent.configure">> = [];
  before(async () => {
    fs.mkdirSync(path.dirname(bridge), { recursive: true });
    const mockAgent = path.join(repoRoot, "packages/mock-agent/dist/cli.js");
    fs.writeFileSync(bridge, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(mockAgent)} "$@"\n`, { mode: 0o755 });
    const emptyPath = fs.mkdtempSync(path.join(dir, "path-"));
    server = await startTestServer({
      dir,
      agentDirs: [agentDir],
      childEnv: { PATH: emptyPath },
      onConfigure: (_s, params) => configures.push(params),
    });
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("GET /agent-presets: the Claude bridge local and via npx, Gemini; availability from the disk and PATH, never spawned", async () => {
    const res = await api<AgentPreset[]>(base, "GET", "/api/v1/agent-presets");
    assert.equal(res.status, 200);
    for (const p of res.body) AgentPresetSchema.parse(p);
    const byId = new Map(res.body.map((p) => [p.id, p]));
    const local = byId.get("claude-acp-local")!;
    assert.deepEqual([local.available, local.command, local.agent_id, local.env_hints], [true, [bridge], "claude-acp", ["ANTHROPIC_API_KEY"]]);
    const npx = byId.get("claude-acp-npx")!;
    assert.deepEqual(npx.command, ["npx", "-y", "@agentclientprotocol/claude-agent-acp@latest"]);
    assert.equal(npx.available, false, "npx is not on this board's (empty) PATH");
    assert.match(npx.unavailable_reason!, /npx was not found/);
    const gemini = byId.get("gemini")!;
    assert.deepEqual([gemini.available, gemini.command], [false, ["gemini", "--experimental-acp"]]);
    assert.match(gemini.unavailable_reason!, /npm install -g @google\/gemini-cli/);
    assert.equal(server.childPids().length, 0, "nothing was run to find out");
  });

  test("from-preset: a profile with the resolved command, agent_id claude-acp and the env given; its session runs with that agent_id", async () => {
    const res = await api<AgentProfile>(base, "POST", "/api/v1/agent-profiles/from-preset", {
      preset_id: "claude-acp-local",
      id: "my-claude",
      env: { ANTHROPIC_API_KEY: "sk-ant-fake-key" },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(
      [res.body.id, res.body.name, res.body.command, res.body.agent_id, res.body.env, res.body.builtin],
      ["my-claude", "Claude (installed bridge)", [bridge], "claude-acp", { ANTHROPIC_API_KEY: "********" }, false],
    );
    const listed = (await api<AgentProfile[]>(base, "GET", "/api/v1/agent-profiles")).body.find((p) => p.id === "my-claude");
    assert.equal(listed?.agent_id, "claude-acp");
    const { task, session } = await createTask(base, "/e2e:echo through the bridge preset", { agent_profile_id: "my-claude" });
    await waitForTaskState(base, task.id, "REVIEW");
    assert.ok((await getMessages(base, session.id)).some((m) => m.author_type === "agent" && /through the bridge preset/.test(m.content)));
    const configure = configures.at(-1)!;
    assert.equal(configure.agent_id, "claude-acp", "the capabilities _meta variant of the bridge");
    assert.deepEqual(configure.agent.env, { ANTHROPIC_API_KEY: "sk-ant-fake-key" }, "the answer masks the key, the agent gets it");
    const dup = await api(base, "POST", "/api/v1/agent-profiles/from-preset", { preset_id: "claude-acp-local", id: "my-claude" });
    assert.equal(dup.status, 409);
  });

  test("a profile from a preset that is not installed is allowed; its session fails at once saying how to install it", async () => {
    const res = await api<AgentProfile>(base, "POST", "/api/v1/agent-profiles/from-preset", { preset_id: "gemini", name: "My Gemini" });
    assert.equal(res.status, 201);
    assert.deepEqual([res.body.name, res.body.command, res.body.agent_id], ["My Gemini", ["gemini", "--experimental-acp"], "gemini"]);
    const { task, session } = await createTask(base, "hello", { agent_profile_id: res.body.id });
    assert.equal(task.state, "FAILED");
    const error = (await getMessages(base, session.id)).find((m) => m.type === "error")!;
    assert.match(error.content, /^the agent command "gemini" was not found on PATH\. Install it: npm install -g @google\/gemini-cli$/);
  });

  test("bad bodies: unknown preset -> 400 naming preset_id; missing preset_id or a bad id -> 400", async () => {
    const unknown = await api<{ error: { code: string; details: Array<{ path: string }> } }>(base, "POST", "/api/v1/agent-profiles/from-preset", {
      preset_id: "nope",
    });
    assert.deepEqual([unknown.status, unknown.body.error.code, unknown.body.error.details[0]?.path], [400, "VALIDATION_ERROR", "preset_id"]);
    const missing = await api<{ error: { code: string } }>(base, "POST", "/api/v1/agent-profiles/from-preset", {});
    assert.deepEqual([missing.status, missing.body.error.code], [400, "VALIDATION_ERROR"]);
    const badId = await api<{ error: { code: string } }>(base, "POST", "/api/v1/agent-profiles/from-preset", {
      preset_id: "gemini",
      id: "Not Valid",
    });
    assert.deepEqual([badId.status, badId.body.error.code], [400, "VALIDATION_ERROR"]);
    const badAgentId = await api<{ error: { code: string } }>(base, "POST", "/api/v1/agent-profiles", {
      name: "x",
      command: ["x"],
      agent_id: "UPPER",
    });
    assert.deepEqual([badAgentId.status, badAgentId.body.error.code], [400, "VALIDATION_ERROR"]);
  });
});
