// Session state end to end: the board (in process) -> real agentctl -> the mock agent playing the
// Claude bridge's shapes (MOCK_AGENT_SESSION_STATE=1), and the resumable agent for session/load.
// Modes, config options, commands, usage and title are stored on the session, pushed as
// session.updated, changed by the operator through the agent, and survive a restart.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import type { Envelope, Message, Session, Task } from "@kandev/protocol";
import { USAGE_BURST } from "@kandev/mock-agent";
import {
  api,
  createTask,
  eventually,
  getMessages,
  getSession,
  getTask,
  repoRoot,
  resumableAgent,
  startTestServer,
  tempDir,
  waitForTaskState,
  WsClient,
} from "./helpers.js";

const MOCK_CLI = path.join(repoRoot, "packages/mock-agent/dist/cli.js");

type Server = Awaited<ReturnType<typeof startTestServer>>;

async function prompt(base: string, session: Session, text: string): Promise<void> {
  const res = await api(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  await waitForTaskState(base, session.task_id, "REVIEW");
}

const sessionUpdates = (ws: WsClient, id: string): Session[] =>
  ws.frames
    .filter((f: Envelope) => f.action === "session.updated")
    .map((f) => (f.payload as { session: Session }).session)
    .filter((s) => s.id === id);

describe("session settings: modes, config options, commands, usage, title", () => {
  let server: Server;
  let session: Session;
  let ws: WsClient;

  before(async () => {
    server = await startTestServer();
    const profile = await api(server.url, "POST", "/api/v1/agent-profiles", {
      id: "stateful",
      name: "Stateful mock",
      command: [process.execPath, MOCK_CLI],
      env: { MOCK_AGENT_SESSION_STATE: "1" },
    });
    assert.equal(profile.status, 201, JSON.stringify(profile.body));
    ws = await WsClient.connect(server.url);
    const created = await createTask(server.url, "/e2e:session-state", { agent_profile_id: "stateful" });
    await ws.request("subscribe", { task_id: created.task.id });
    await waitForTaskState(server.url, created.task.id, "REVIEW");
    session = await eventually(async () => {
      const s = await getSession(server.url, created.session.id);
      return s.title !== null && s.available_commands.length > 0 ? s : undefined;
    }, "the session's state");
  });
  after(async () => {
    ws?.close();
    await server?.close();
  });

  test("what session/new returned and what the agent sent is on the session and its task", async () => {
    assert.equal(session.modes?.current_mode_id, "default");
    assert.deepEqual(
      session.modes?.available_modes.map((m) => m.name),
      ["Ask", "Plan", "Accept edits", "Broken (mock refuses)"],
    );
    assert.equal(session.config_options?.[0]?.id, "model");
    assert.equal(session.config_options?.[0]?.current_value, "mock-fast");
    assert.deepEqual(session.available_commands[0], { name: "review", description: "Review the changes so far", input_hint: "[path]" });
    assert.deepEqual(session.usage, { used: 42000, size: 200000, cost: { amount: 0.42, currency: "USD" } });
    assert.equal(session.title, "Mock session title");
    const task: Task = await getTask(server.url, session.task_id);
    assert.deepEqual(task.session_usage, session.usage);
    assert.equal(task.session_title, "Mock session title");
    const messages = await getMessages(server.url, session.id);
    assert.ok(!messages.some((m) => m.type === "status"), "state updates add nothing to the transcript");
    const tasks = ws.frames.filter((f) => f.action === "task.updated").map((f) => (f.payload as { task: Task }).task);
    assert.ok(
      tasks.some((t) => t.session_usage?.used === 42000),
      "the card hears of the usage",
    );
  });

  test("POST /mode switches through the agent: 200 with the session, session.updated pushed, a status message with the user", async () => {
    const res = await api<Session>(server.url, "POST", `/api/v1/sessions/${session.id}/mode`, { mode_id: "plan" });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.modes?.current_mode_id, "plan");
    await ws.waitFor(
      (f) => f.action === "session.updated" && (f.payload as { session: Session }).session.modes?.current_mode_id === "plan",
      "session.updated in plan mode",
    );
    const status = (await getMessages(server.url, session.id)).filter((m: Message) => m.type === "status");
    assert.deepEqual(
      status.map((m) => [m.content, m.metadata.mode_id, m.metadata.user]),
      [["Mode: Plan", "plan", "local"]],
    );
  });

  test("an unknown mode is 400 on mode_id; the agent refusing is 502 AGENT_ERROR with its words; nothing changes", async () => {
    const unknown = await api<{ error: { code: string; details: Array<{ path: string }> } }>(
      server.url,
      "POST",
      `/api/v1/sessions/${session.id}/mode`,
      {
        mode_id: "yolo",
      },
    );
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, "VALIDATION_ERROR");
    assert.equal(unknown.body.error.details[0]?.path, "mode_id");
    assert.equal((await api(server.url, "POST", `/api/v1/sessions/${session.id}/mode`, {})).status, 400);
    const refused = await api<{ error: { code: string; message: string } }>(server.url, "POST", `/api/v1/sessions/${session.id}/mode`, {
      mode_id: "broken",
    });
    assert.equal(refused.status, 502);
    assert.equal(refused.body.error.code, "AGENT_ERROR");
    assert.match(refused.body.error.message, /the mock agent refuses mode broken/);
    assert.equal((await getSession(server.url, session.id)).modes?.current_mode_id, "plan");
    assert.equal((await api(server.url, "POST", "/api/v1/sessions/nope/mode", { mode_id: "plan" })).status, 404);
  });

  test("POST /config-options sets the model through the agent: 200 {config_options}; bad ids 400, the agent refusing 502", async () => {
    const res = await api<{ config_options: Session["config_options"] }>(server.url, "POST", `/api/v1/sessions/${session.id}/config-options`, {
      config_id: "model",
      value: "mock-smart",
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ["config_options"]);
    assert.equal(res.body.config_options?.[0]?.current_value, "mock-smart");
    assert.equal((await getSession(server.url, session.id)).config_options?.[0]?.current_value, "mock-smart");
    await ws.waitFor(
      (f) => f.action === "session.updated" && (f.payload as { session: Session }).session.config_options?.[0]?.current_value === "mock-smart",
      "session.updated with the new model",
    );
    const at = (body: unknown) =>
      api<{ error: { code: string; details?: Array<{ path: string }> } }>(server.url, "POST", `/api/v1/sessions/${session.id}/config-options`, body);
    const badValue = await at({ config_id: "model", value: "gpt-9" });
    assert.deepEqual([badValue.status, badValue.body.error.details?.[0]?.path], [400, "value"]);
    const badId = await at({ config_id: "temperature", value: "hot" });
    assert.deepEqual([badId.status, badId.body.error.details?.[0]?.path], [400, "config_id"]);
    const refused = await at({ config_id: "model", value: "mock-broken" });
    assert.deepEqual([refused.status, refused.body.error.code], [502, "AGENT_ERROR"]);
    assert.equal((await getSession(server.url, session.id)).config_options?.[0]?.current_value, "mock-smart");
  });

  test("the agent switching mode on its own is recorded with a status message saying so", async () => {
    assert.equal((await api(server.url, "POST", `/api/v1/sessions/${session.id}/mode`, { mode_id: "default" })).status, 200);
    await prompt(server.url, session, "/e2e:session-state switch");
    assert.equal((await getSession(server.url, session.id)).modes?.current_mode_id, "plan");
    const last = (await getMessages(server.url, session.id)).filter((m) => m.type === "status").at(-1);
    assert.deepEqual([last?.content, last?.metadata.by, last?.metadata.user], ["Mode: Plan", "agent", undefined]);
  });

  test("a burst of usage updates is coalesced; the last value is written when the turn ends", async () => {
    const before = sessionUpdates(ws, session.id).length;
    await prompt(server.url, session, "/e2e:session-state burst");
    assert.equal((await getSession(server.url, session.id)).usage?.used, USAGE_BURST * 1000);
    const usages = sessionUpdates(ws, session.id)
      .slice(before)
      .map((s) => s.usage?.used);
    assert.ok(new Set(usages).size < USAGE_BURST, `fewer writes than updates: ${usages.join()}`);
  });

  test("a session whose agent is closed takes no setting: 409", async () => {
    assert.equal((await api(server.url, "POST", `/api/v1/sessions/${session.id}/close`)).status, 200);
    const res = await api<{ error: { code: string } }>(server.url, "POST", `/api/v1/sessions/${session.id}/mode`, { mode_id: "acceptEdits" });
    assert.deepEqual([res.status, res.body.error.code], [409, "CONFLICT"]);
    const cfg = await api(server.url, "POST", `/api/v1/sessions/${session.id}/config-options`, { config_id: "model", value: "mock-fast" });
    assert.equal(cfg.status, 409);
    assert.equal((await getSession(server.url, session.id)).modes?.current_mode_id, "plan", "the stored state is kept");
  });
});

describe("session settings across a restart (session/load)", () => {
  test("the mode is kept by the board over a restart and comes back from session/load on resume", async () => {
    const dir = tempDir();
    const store = path.join(dir, "resumable.json");
    const run1 = await startTestServer({ dir });
    let session: Session;
    try {
      const profile = await api(run1.url, "POST", "/api/v1/agent-profiles", {
        id: "resumable",
        name: "Resumable",
        command: [process.execPath, resumableAgent],
        env: { RESUMABLE_AGENT_STORE: store, RESUMABLE_AGENT_MODES: "1" },
      });
      assert.equal(profile.status, 201);
      const created = await createTask(run1.url, "remember the cat", { agent_profile_id: "resumable" });
      await waitForTaskState(run1.url, created.task.id, "REVIEW");
      session = await getSession(run1.url, created.session.id);
      assert.equal(session.modes?.current_mode_id, "default");
      assert.equal((await api(run1.url, "POST", `/api/v1/sessions/${session.id}/mode`, { mode_id: "plan" })).status, 200);
    } finally {
      await run1.close();
    }
    const run2 = await startTestServer({ dir, dbPath: run1.dbPath });
    try {
      assert.equal((await getSession(run2.url, session.id)).modes?.current_mode_id, "plan", "stored on the session's row");
      await prompt(run2.url, session, "what was it?");
      const after = await getSession(run2.url, session.id);
      assert.equal(after.acp_session_id, session.acp_session_id, "loaded, not a new ACP session");
      assert.equal(after.modes?.current_mode_id, "plan", "session/load answered the mode the agent kept");
      const texts = (await getMessages(run2.url, session.id)).filter((m) => m.type === "text" && m.author_type === "agent").map((m) => m.content);
      assert.deepEqual(texts.at(-1), "turn 2; earlier: remember the cat");
    } finally {
      await run2.close();
    }
  });
});
