// Start again, close and idle, over the real agentctl and mock agent (issue 36 items 3 and 4):
// a failed or cancelled task gets a new session (POST /tasks/:id/restart) that reloads the old ACP
// session where the agent can; a session waiting for a prompt has its agent stopped by
// POST /sessions/:id/close or KANDEV_SESSION_IDLE_TIMEOUT, and its next prompt resumes it.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Session, Task } from "@kandev/protocol";
import {
  agentPids,
  api,
  createTask,
  eventually,
  getMessages,
  getSession,
  getTask,
  isGoneOrZombie,
  newAgentPid,
  resumableAgent,
  startTestServer,
  waitForTaskState,
} from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;
type ErrorBody = { error: { code: string; message: string } };

const restart = (base: string, taskId: string, body?: unknown) =>
  api<{ task: Task; session: Session } & ErrorBody>(base, "POST", `/api/v1/tasks/${taskId}/restart`, body);

async function agentText(base: string, sessionId: string, pattern: RegExp): Promise<true> {
  return eventually(
    async () =>
      (await getMessages(base, sessionId)).some((m) => m.author_type === "agent" && m.type === "text" && pattern.test(m.content)) ? true : undefined,
    `agent text ${pattern}`,
  );
}

const waitForAgentStatus = (base: string, sessionId: string, status: Session["agent_status"]) =>
  eventually(async () => {
    const s = await getSession(base, sessionId);
    return s.agent_status === status ? s : undefined;
  }, `session ${sessionId} agent ${status}`);

describe("start again (POST /api/v1/tasks/:id/restart)", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("a crashed task starts again: a new session, the last prompt sent again, the transcript saying the agent has no memory", async () => {
    const { task, session } = await createTask(base, "/e2e:crash");
    await waitForTaskState(base, task.id, "FAILED");
    const res = await restart(base, task.id, { prompt: "/e2e:echo back on my feet" });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.notEqual(res.body.session.id, session.id, "a new session");
    assert.equal(res.body.task.session_id, res.body.session.id);
    assert.equal(res.body.task.state, "IN_PROGRESS");
    await waitForTaskState(base, task.id, "REVIEW");
    await agentText(base, res.body.session.id, /back on my feet/);
    const messages = await getMessages(base, res.body.session.id);
    assert.deepEqual(
      messages.slice(0, 2).map((m) => [m.author_type, m.type]),
      [
        ["user", "text"],
        ["agent", "status"],
      ],
    );
    assert.match(messages[1]!.content, /without memory of earlier turns/);
    assert.equal(messages[1]!.metadata.resume, "new_session");
    const sessions = (await api<Session[]>(base, "GET", `/api/v1/tasks/${task.id}/sessions`)).body;
    assert.deepEqual(
      sessions.map((s) => s.state),
      ["FAILED", "WAITING_FOR_INPUT"],
    );
  });

  test("a session stopped while starting leaves the task restartable; without a body the last prompt is sent again", async () => {
    const gate = path.join(server.dir, "start-gate");
    const profile = await api(base, "POST", "/api/v1/agent-profiles", {
      id: "gated",
      name: "Gated mock",
      command: await mockCommand(base),
      env: { MOCK_AGENT_START_GATE: gate },
    });
    assert.equal(profile.status, 201, JSON.stringify(profile.body));
    const { task, session } = await createTask(base, "/e2e:echo started at last", { agent_profile_id: "gated" });
    assert.equal(session.state, "STARTING");
    assert.equal((await api(base, "POST", `/api/v1/sessions/${session.id}/cancel`)).status, 202);
    await waitForTaskState(base, task.id, "CANCELLED");
    fs.writeFileSync(gate, "open");
    const res = await restart(base, task.id);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    await waitForTaskState(base, task.id, "REVIEW");
    await agentText(base, res.body.session.id, /started at last/);
    const first = (await getMessages(base, res.body.session.id))[0]!;
    assert.deepEqual([first.author_type, first.content], ["user", "/e2e:echo started at last"]);
  });

  test("an agent with loadSession reloads its earlier session and the transcript says so", async () => {
    const store = path.join(server.dir, "resumable.json");
    const profile = await api(base, "POST", "/api/v1/agent-profiles", {
      id: "resumable",
      name: "Resumable",
      command: [process.execPath, resumableAgent],
      env: { RESUMABLE_AGENT_STORE: store },
    });
    assert.equal(profile.status, 201);
    const before = agentPids(server);
    const { task, session } = await createTask(base, "remember the cat", { agent_profile_id: "resumable" });
    const agent = await newAgentPid(server, before);
    await waitForTaskState(base, task.id, "REVIEW");
    const acp = (await getSession(base, session.id)).acp_session_id;
    // The agent crashing makes the session FAILED with its ACP session stored.
    process.kill(agent, "SIGKILL");
    await waitForTaskState(base, task.id, "FAILED");
    const res = await restart(base, task.id, { prompt: "what was it?" });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    await waitForTaskState(base, task.id, "REVIEW");
    await agentText(base, res.body.session.id, /^turn 2; earlier: remember the cat$/);
    const messages = await getMessages(base, res.body.session.id);
    const note = messages.find((m) => m.type === "status")!;
    assert.match(note.content, /reloaded its earlier session/);
    assert.equal(note.metadata.resume, "session_load");
    assert.equal((await getSession(base, res.body.session.id)).acp_session_id, acp);
  });

  test("refusals: an unknown task is 404, a task whose session is live is 409, a bad body is 400", async () => {
    assert.equal((await restart(base, "no-such-task")).status, 404);
    const { task } = await createTask(base, "/e2e:echo still here");
    await waitForTaskState(base, task.id, "REVIEW");
    const live = await restart(base, task.id);
    assert.deepEqual([live.status, live.body.error.code], [409, "CONFLICT"]);
    const bad = await restart(base, task.id, { prompt: "" });
    assert.deepEqual([bad.status, bad.body.error.code], [400, "VALIDATION_ERROR"]);
  });
});

/** The built-in mock profile's command, so a test profile runs the same agent with other env. */
async function mockCommand(base: string): Promise<string[]> {
  const profiles = (await api<Array<{ id: string; command: string[] }>>(base, "GET", "/api/v1/agent-profiles")).body;
  return profiles.find((p) => p.id === "mock")!.command;
}

describe("closing an agent (POST /api/v1/sessions/:id/close)", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("close stops the agent (agentctl stays), the session reads closed, and a prompt resumes it on a new agent", async () => {
    const before = agentPids(server);
    const { task, session } = await createTask(base, "/e2e:echo first");
    const agent = await newAgentPid(server, before);
    await waitForTaskState(base, task.id, "REVIEW");
    assert.equal((await getSession(base, session.id)).agent_status, "idle");
    const ctl = server.childPids();
    const res = await api<Session>(base, "POST", `/api/v1/sessions/${session.id}/close`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.state, res.body.agent_status, res.body.error], ["WAITING_FOR_INPUT", "closed", "closed by the operator"]);
    assert.deepEqual([res.body.ended, res.body.interruption], [false, "session_closed"], "a closed session still takes prompts");
    await eventually(() => (isGoneOrZombie(agent) ? true : undefined), "the agent process gone");
    assert.deepEqual(server.childPids(), ctl, "agentctl stays");
    assert.equal((await getTask(base, task.id)).state, "REVIEW");
    const again = await api<Session>(base, "POST", `/api/v1/sessions/${session.id}/close`);
    assert.deepEqual([again.status, again.body.agent_status], [200, "closed"], "closing a closed session changes nothing");

    const beforeResume = agentPids(server);
    const prompt = await api(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "/e2e:echo second" });
    assert.equal(prompt.status, 202);
    const resumed = await newAgentPid(server, beforeResume);
    assert.notEqual(resumed, agent);
    await waitForTaskState(base, task.id, "REVIEW");
    await agentText(base, session.id, /second/);
    assert.equal((await getSession(base, session.id)).agent_status, "idle");
  });

  test("refusals: an unknown session is 404, a running turn or an ended session is 409", async () => {
    assert.equal((await api(base, "POST", "/api/v1/sessions/nope/close")).status, 404);
    const { task, session } = await createTask(base, "/e2e:hang");
    await eventually(async () => ((await getSession(base, session.id)).state === "RUNNING" ? true : undefined), "turn running");
    assert.equal((await getSession(base, session.id)).agent_status, "running");
    const running = await api<ErrorBody>(base, "POST", `/api/v1/sessions/${session.id}/close`);
    assert.deepEqual([running.status, running.body.error.code], [409, "CONFLICT"]);
    await api(base, "POST", `/api/v1/sessions/${session.id}/cancel`);
    await waitForTaskState(base, task.id, "REVIEW");
    const crashed = await createTask(base, "/e2e:crash");
    await waitForTaskState(base, crashed.task.id, "FAILED");
    const failed = await getSession(base, crashed.session.id);
    assert.deepEqual([failed.ended, failed.interruption], [true, null], "a failed session takes no more prompts");
    const ended = await api<ErrorBody>(base, "POST", `/api/v1/sessions/${crashed.session.id}/close`);
    assert.deepEqual([ended.status, ended.body.error.code], [409, "CONFLICT"]);
  });
});

describe("idle agents go away (KANDEV_SESSION_IDLE_TIMEOUT)", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer({ sessionIdleTimeoutMs: 400 });
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("a session idle past the timeout has its agent stopped; a question pending elsewhere keeps its own agent; a prompt resumes", async () => {
    // The question's session becomes idle-eligible first, so its timer has fired before the echo's.
    const before = agentPids(server);
    const asking = await createTask(base, "/e2e:kandev-question");
    const asker = await newAgentPid(server, before);
    const question = await eventually(
      async () => (await getMessages(base, asking.session.id)).find((m) => m.type === "clarification_request" && m.requests_input),
      "the question",
    );
    const beforeEcho = agentPids(server);
    const { task, session } = await createTask(base, "/e2e:echo soon idle");
    const agent = await newAgentPid(server, beforeEcho);
    await waitForTaskState(base, task.id, "REVIEW");
    const closed = await waitForAgentStatus(base, session.id, "closed");
    assert.deepEqual([closed.state, closed.error], ["WAITING_FOR_INPUT", "closed while idle"]);
    await eventually(() => (isGoneOrZombie(agent) ? true : undefined), "the idle agent gone");
    assert.equal((await getTask(base, task.id)).state, "REVIEW");

    assert.equal(isGoneOrZombie(asker), false, "the agent with a question pending is still there");
    assert.equal((await getSession(base, asking.session.id)).agent_status, "running");
    const answer = await api(base, "POST", `/api/v1/clarifications/${question.metadata.pending_id}/respond`, {
      answers: [{ question_id: "database", selected_options: ["postgres"] }],
    });
    assert.equal(answer.status, 200);
    await waitForTaskState(base, asking.task.id, "REVIEW");

    const prompt = await api(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "/e2e:echo awake again" });
    assert.equal(prompt.status, 202);
    await waitForTaskState(base, task.id, "REVIEW");
    await agentText(base, session.id, /awake again/);
    const note = (await getMessages(base, session.id)).find((m) => m.type === "status");
    assert.match(note?.content ?? "", /without memory of earlier turns/, "resumed like after a restart");
  });
});
