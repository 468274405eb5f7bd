import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { AgentActionParams, AgentProfile, RuntimeFlag, Session } from "@kandev/protocol";
import { api, createTask, getSession, startTestServer, tempDir, waitForTaskState } from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;
const KEY = "features.acpElicitation";

/** What the mock agent received in `initialize` (its own JSON-lines wire log). */
function initializeCapabilities(logFile: string): Array<Record<string, unknown>> {
  if (!fs.existsSync(logFile)) return [];
  return fs
    .readFileSync(logFile, "utf8")
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as { dir: string; frame: { method?: string; params?: { clientCapabilities?: Record<string, unknown> } } })
    .filter((l) => l.dir === "in" && l.frame.method === "initialize")
    .map((l) => l.frame.params?.clientCapabilities ?? {});
}

describe("runtime flags: env > override > profile, resolved at startup, sent in agent.configure", () => {
  const dir = tempDir();
  const dbPath = path.join(dir, "kandev.db");
  const configured: Array<AgentActionParams<"agent.configure">> = [];
  let server: Server | null = null;
  after(async () => {
    await server?.close();
  });

  async function start(flagEnv: Record<string, boolean> = {}): Promise<Server> {
    server = await startTestServer({ dir, dbPath, flagEnv, onConfigure: (_id, params) => configured.push(params) });
    return server;
  }
  async function stop(): Promise<void> {
    await server?.close();
    server = null;
  }
  /** Runs one turn with a profile whose mock agent logs its wire, and returns what it saw. */
  async function runSession(s: Server, name: string): Promise<{ features: unknown; caps: Record<string, unknown>; session: Session }> {
    const logFile = path.join(dir, `${name}.jsonl`);
    const mock = (await api<AgentProfile[]>(s.url, "GET", "/api/v1/agent-profiles")).body.find((p) => p.id === "mock")!;
    const created = await api(s.url, "POST", "/api/v1/agent-profiles", { id: name, name, command: mock.command, env: { MOCK_AGENT_LOG: logFile } });
    assert.equal(created.status, 201);
    const before = configured.length;
    const { task, session } = await createTask(s.url, "/e2e:plain", { agent_profile_id: name });
    await waitForTaskState(s.url, task.id, "REVIEW");
    assert.equal(configured.length, before + 1);
    const params = configured.at(-1)!;
    assert.equal(params.agent_id, name);
    assert.deepEqual(params.agent.env, { MOCK_AGENT_LOG: logFile });
    const caps = initializeCapabilities(logFile);
    assert.equal(caps.length, 1, "exactly one initialize");
    return { features: params.features, caps: caps[0]!, session };
  }

  test("profile default (off): features false, no elicitation capability on the wire", async () => {
    const s = await start();
    const flags = (await api<RuntimeFlag[]>(s.url, "GET", "/api/v1/runtime-flags")).body;
    assert.deepEqual(flags, [
      {
        key: KEY,
        env_var: "KANDEV_FEATURES_ACP_ELICITATION",
        kind: "feature",
        stability: "experimental",
        risk: "medium",
        restart_required: true,
        mutable: true,
        value: false,
        source: "profile",
        override: null,
      },
    ]);
    const run = await runSession(s, "run-profile");
    assert.deepEqual(run.features, { acpElicitation: false });
    assert.equal("elicitation" in run.caps, false);
  });

  test("PATCH stores an override for the next start; the value in force does not change", async () => {
    const s = server!;
    const r = await api<RuntimeFlag>(s.url, "PATCH", `/api/v1/runtime-flags/${KEY}`, { value: true });
    assert.equal(r.status, 200);
    assert.equal(r.body.restart_required, true);
    assert.equal(r.body.value, false);
    assert.equal(r.body.override, true);
    const bad = await api<{ error: { code: string } }>(s.url, "PATCH", `/api/v1/runtime-flags/${KEY}`, { value: "yes" });
    assert.equal(bad.body.error.code, "VALIDATION_ERROR");
    const unknown = await api<{ error: { code: string } }>(s.url, "PATCH", "/api/v1/runtime-flags/features.nope", { value: true });
    assert.equal(unknown.status, 404);
    const run = await runSession(s, "run-before-restart");
    assert.deepEqual(run.features, { acpElicitation: false }, "resolved once at startup");
  });

  test("after a restart the override is in force: features true reach agentctl and the agent sees elicitation", async () => {
    await stop();
    const s = await start();
    const flag = (await api<RuntimeFlag[]>(s.url, "GET", "/api/v1/runtime-flags")).body[0]!;
    assert.deepEqual([flag.value, flag.source, flag.override], [true, "override", true]);
    const run = await runSession(s, "run-override");
    assert.deepEqual(run.features, { acpElicitation: true });
    assert.deepEqual(run.caps.elicitation, { form: {} });
  });

  test("the previous run's finished sessions stayed in REVIEW at that restart (their agent is gone)", async () => {
    const s = server!;
    const tasks = (await api<Array<{ id: string; state: string; session_id: string; agent_profile_id: string }>>(s.url, "GET", "/api/v1/tasks")).body;
    const old = tasks.filter((t) => t.agent_profile_id === "run-profile" || t.agent_profile_id === "run-before-restart");
    assert.equal(old.length, 2);
    for (const t of old) {
      assert.equal(t.state, "REVIEW");
      const session = await getSession(s.url, t.session_id);
      assert.equal(session.state, "WAITING_FOR_INPUT");
      assert.equal(session.error, "backend restarted");
    }
  });

  test("env beats the override", async () => {
    await stop();
    const s = await start({ [KEY]: false });
    const flag = (await api<RuntimeFlag[]>(s.url, "GET", "/api/v1/runtime-flags")).body[0]!;
    assert.deepEqual([flag.value, flag.source, flag.override], [false, "env", true]);
    const run = await runSession(s, "run-env");
    assert.deepEqual(run.features, { acpElicitation: false });
    assert.equal("elicitation" in run.caps, false);
    const cleared = await api<RuntimeFlag>(s.url, "PATCH", `/api/v1/runtime-flags/${KEY}`, { value: null });
    assert.equal(cleared.body.override, null);
  });
});
