import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Message, Session, Task } from "@kandev/protocol";
import {
  WsClient,
  api,
  createTask,
  eventually,
  followMessage,
  getMessages,
  getSession,
  getTask,
  agentPids,
  isGoneOrZombie,
  newAgentPid,
  startTestServer,
  waitForTaskState,
} from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;
const CRASH_LINE = "mock-agent: crashing on purpose";

const payloadOf = <T>(f: { payload: unknown }) => f.payload as T;

describe("sessions with the real agentctl and mock agent", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("echo: the agent's text reaches GET messages and board subscribers; the task ends in REVIEW", async () => {
    const board = await WsClient.connect(base);
    try {
      assert.equal((await board.request("subscribe", { board: true })).type, "response");
      const { task, session } = await createTask(base, "/e2e:echo hello");
      assert.equal(task.state, "IN_PROGRESS");
      assert.equal(session.state, "STARTING");
      const review = await waitForTaskState(base, task.id, "REVIEW");
      assert.equal(review.session_state, "WAITING_FOR_INPUT");
      assert.equal(review.turn_active, false);
      assert.equal(review.pending_action, null);
      const messages = await getMessages(base, session.id);
      assert.deepEqual(
        messages.map((m) => [m.author_type, m.type]),
        [
          ["user", "text"],
          ["agent", "text"],
        ],
        "chunks are coalesced into one message",
      );
      assert.equal(messages[0]!.content, "/e2e:echo hello");
      assert.match(messages[1]!.content, /hello/);
      assert.equal(messages[1]!.turn_id, session.current_turn_id);
      const states = board.frames.filter((f) => f.action === "task.updated").map((f) => payloadOf<{ task: Task }>(f).task.state);
      assert.ok(states.includes("IN_PROGRESS") && states.at(-1) === "REVIEW", `board saw ${states.join(" -> ")}`);
      const s = await getSession(base, session.id);
      assert.ok(s.acp_session_id !== null);
      assert.deepEqual(
        (await api<Session[]>(base, "GET", `/api/v1/tasks/${task.id}/sessions`)).body.map((x) => x.id),
        [session.id],
      );
    } finally {
      board.close();
    }
  });

  test("a follow-up prompt streams to a task subscriber: message added then appended to, session and task updates", async () => {
    const { task, session } = await createTask(base, "/e2e:plain");
    await waitForTaskState(base, task.id, "REVIEW");
    const ws = await WsClient.connect(base);
    try {
      await ws.request("subscribe", { task_id: task.id });
      const res = await api<{ turn_id: string }>(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "/e2e:echo hello again and again" });
      assert.equal(res.status, 202);
      const turnId = res.body.turn_id;
      const isAgentText = (m: Message) => m.author_type === "agent" && m.type === "text" && m.turn_id === turnId;
      const added = await ws.waitFor(
        (f) => f.action === "session.message.added" && isAgentText(payloadOf<{ message: Message }>(f).message),
        "agent text added",
      );
      const messageId = payloadOf<{ message: Message }>(added).message.id;
      await ws.waitFor((f) => f.action === "task.updated" && payloadOf<{ task: Task }>(f).task.state === "REVIEW", "task back in REVIEW");
      // The rest of the text came as deltas on the same message (session.message.appended), none missed.
      const noRefetch = () => Promise.reject(new Error("a delta did not fit: the stream lost or reordered text"));
      const copy = await followMessage(ws.frames, messageId, noRefetch);
      assert.match(copy.content ?? "", /hello again and again/);
      assert.ok(copy.deltas > 0, "the same message grew by deltas");
      const sessionStates = ws.frames.filter((f) => f.action === "session.updated").map((f) => payloadOf<{ session: Session }>(f).session.state);
      assert.deepEqual([sessionStates[0], sessionStates.at(-1)], ["RUNNING", "WAITING_FOR_INPUT"]);
      const userAdded = ws.frames.find(
        (f) => f.action === "session.message.added" && payloadOf<{ message: Message }>(f).message.author_type === "user",
      );
      assert.equal(payloadOf<{ message: Message }>(userAdded!).message.content, "/e2e:echo hello again and again");
      const agentTexts = (await getMessages(base, session.id)).filter(isAgentText);
      assert.equal(agentTexts.length, 1);
    } finally {
      ws.close();
    }
  });

  test("a prompt while a turn runs is queued, not refused (queued-prompts.test.ts); cancel during /e2e:slow stops the stream", async () => {
    const { task, session } = await createTask(base, "/e2e:slow");
    const sub = await WsClient.connect(base);
    try {
      await sub.request("subscribe", { session_id: session.id });
      await eventually(
        async () => ((await getMessages(base, session.id)).some((m) => m.author_type === "agent" && /tick 2/.test(m.content)) ? true : undefined),
        "two ticks",
      );
      const busy = await api<{ queued: { id: string } }>(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "again" });
      assert.equal(busy.status, 202);
      // Withdrawn again, so the turns below are the only ones.
      assert.equal((await api(base, "DELETE", `/api/v1/sessions/${session.id}/queued-prompts/${busy.body.queued.id}`)).status, 204);
      const cancel = await api(base, "POST", `/api/v1/sessions/${session.id}/cancel`);
      assert.equal(cancel.status, 202);
      assert.deepEqual(cancel.body, { ok: true });
      await waitForTaskState(base, task.id, "REVIEW");
      const afterCancel = await getMessages(base, session.id);
      const status = afterCancel.find((m) => m.type === "status");
      assert.equal(status?.content, "Turn cancelled");
      const slowText = afterCancel.find((m) => m.author_type === "agent" && m.type === "text")!;
      assert.doesNotMatch(slowText.content, /tick 50/, "the stream stopped early");
      // Another full turn later, the cancelled turn's message has not grown: the stream really stopped.
      await api(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "/e2e:plain" });
      await eventually(async () => {
        const t = await getTask(base, task.id);
        const ms = await getMessages(base, session.id);
        return t.state === "REVIEW" && ms.filter((m) => m.author_type === "user").length === 2 && ms.at(-1)?.content === "ok" ? true : undefined;
      }, "second turn done");
      const later = (await getMessages(base, session.id)).find((m) => m.id === slowText.id)!;
      assert.equal(later.content, slowText.content);
      const noTurn = await api<{ error: { code: string } }>(base, "POST", `/api/v1/sessions/${session.id}/cancel`);
      assert.equal(noTurn.status, 409);
    } finally {
      sub.close();
    }
  });

  test("tool calls become one tool_call message each, updated in place", async () => {
    const { task, session } = await createTask(base, "/e2e:tool-call Read the docs");
    await waitForTaskState(base, task.id, "REVIEW");
    const messages = await getMessages(base, session.id);
    assert.deepEqual(
      messages.map((m) => m.type),
      ["text", "tool_call", "text"],
    );
    assert.equal(messages[1]!.content, "Read the docs");
    assert.equal(messages[1]!.metadata.status, "completed");
    assert.equal(messages[2]!.content, "Tool call finished.");
  });

  test("a permission request makes the task wait for input (pending_action permission) until answered over REST", async () => {
    const { task, session } = await createTask(base, "/e2e:permission Delete build/");
    const waiting = await eventually(async () => {
      const t = await getTask(base, task.id);
      return t.pending_action === "permission" ? t : undefined;
    }, "pending permission");
    assert.equal(waiting.state, "WAITING_FOR_INPUT");
    const listed = await api<Array<{ id: string }>>(base, "GET", "/api/v1/tasks?state=WAITING_FOR_INPUT");
    assert.ok(
      listed.body.some((t) => t.id === task.id),
      "listed with the tasks waiting for input",
    );
    const request = (await getMessages(base, session.id)).find((m) => m.type === "permission_request")!;
    assert.equal(request.requests_input, true);
    const pendingId = request.metadata.pending_id as string;
    const bad = await api<{ error: { code: string } }>(base, "POST", `/api/v1/sessions/${session.id}/permissions/${pendingId}/respond`, {});
    assert.equal(bad.body.error.code, "VALIDATION_ERROR");
    const unknown = await api(base, "POST", `/api/v1/sessions/${session.id}/permissions/nope/respond`, { option_id: "allow-once" });
    assert.equal(unknown.status, 404);
    const ok = await api(base, "POST", `/api/v1/sessions/${session.id}/permissions/${pendingId}/respond`, { option_id: "allow-once" });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, { success: true });
    const done = await waitForTaskState(base, task.id, "REVIEW");
    assert.equal(done.pending_action, null);
    const messages = await getMessages(base, session.id);
    const settled = messages.find((m) => m.id === request.id)!;
    assert.equal(settled.requests_input, false);
    assert.equal(settled.metadata.status, "selected");
    assert.ok(messages.some((m) => m.content === "Permission granted: allow-once"));
  });

  test("crash: the agent dying mid-turn fails session and task with the stderr tail in an error message", async () => {
    const before = agentPids(server);
    const { task, session } = await createTask(base, "/e2e:crash");
    const failed = await waitForTaskState(base, task.id, "FAILED");
    assert.equal(failed.session_state, "FAILED");
    const s = await getSession(base, session.id);
    assert.equal(s.state, "FAILED");
    assert.match(s.error ?? "", /exited/);
    const errors = (await getMessages(base, session.id)).filter((m) => m.type === "error");
    assert.equal(errors.length, 1, `one error message per crash: ${JSON.stringify(errors.map((m) => m.content))}`);
    assert.match(errors[0]!.content, /exited unexpectedly \(code 3\)/);
    assert.ok(errors[0]!.content.includes(CRASH_LINE), errors[0]!.content);
    assert.ok(String(errors[0]!.metadata.stderr_tail).includes(CRASH_LINE));
    const again = await api<{ error: { code: string } }>(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "hi" });
    assert.equal(again.status, 409, "a failed session takes no prompt");
    // Its agent is gone; the host's agentctl runs on for the other sessions.
    await eventually(
      () => (agentPids(server).every((p) => before.includes(p) || isGoneOrZombie(p)) ? true : undefined),
      "no agent of the failed session left",
    );
    assert.equal(server.childPids().length, 1);
  });

  test("cancel while the agent is still starting cancels the session", async () => {
    // An "agent" that never answers ACP initialize keeps the session in STARTING (initialize has no timeout).
    const silent = await api(base, "POST", "/api/v1/agent-profiles", {
      id: "silent",
      name: "Silent",
      command: [process.execPath, "-e", "setInterval(() => {}, 1000)"],
    });
    assert.equal(silent.status, 201);
    const before = agentPids(server);
    const { task, session } = await createTask(base, "hello", { agent_profile_id: "silent" });
    const agent = await newAgentPid(server, before);
    const cancel = await api(base, "POST", `/api/v1/sessions/${session.id}/cancel`);
    assert.equal(cancel.status, 202);
    const t = await waitForTaskState(base, task.id, "CANCELLED");
    assert.equal(t.session_state, "CANCELLED");
    const messages = await getMessages(base, session.id);
    assert.equal(messages.at(-1)?.type, "status");
    await eventually(() => (isGoneOrZombie(agent) ? true : undefined), "the session's agent stopped");
    const again = await api(base, "POST", `/api/v1/sessions/${session.id}/cancel`);
    assert.equal(again.status, 409);
  });

  test("an agent command that cannot start fails the session with a clear error", async () => {
    const profile = await api(base, "POST", "/api/v1/agent-profiles", { id: "broken", name: "Broken", command: ["/nonexistent/agent-binary"] });
    assert.equal(profile.status, 201);
    const { task, session } = await createTask(base, "hello", { agent_profile_id: "broken" });
    await waitForTaskState(base, task.id, "FAILED");
    const s = await getSession(base, session.id);
    assert.ok((s.error ?? "").length > 0);
    assert.ok((await getMessages(base, session.id)).some((m) => m.type === "error"));
  });

  test("unknown ids: 404 NOT_FOUND; unknown profile: 400 VALIDATION_ERROR; wrong method: 405", async () => {
    for (const p of [
      "/api/v1/tasks/nope",
      "/api/v1/sessions/nope",
      "/api/v1/sessions/nope/messages",
      "/api/v1/tasks/nope/sessions",
      "/api/v1/nope",
    ]) {
      const r = await api<{ error: { code: string } }>(base, "GET", p);
      assert.equal(r.status, 404, p);
      assert.equal(r.body.error.code, "NOT_FOUND");
    }
    const prompt = await api(base, "POST", "/api/v1/sessions/nope/prompt", { text: "x" });
    assert.equal(prompt.status, 404);
    const r = await api<{ error: { code: string; details: Array<{ path: string }> } }>(base, "POST", "/api/v1/tasks", {
      title: "t",
      prompt: "p",
      agent_profile_id: "ghost",
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, "VALIDATION_ERROR");
    assert.equal(r.body.error.details[0]!.path, "agent_profile_id");
    const m = await api<{ error: { code: string } }>(base, "DELETE", "/api/v1/tasks");
    assert.equal(m.status, 405);
    assert.equal(m.headers.get("allow"), "GET, POST");
    const filtered = await api<Task[]>(base, "GET", "/api/v1/tasks?state=FAILED");
    assert.ok(filtered.body.length > 0 && filtered.body.every((t) => t.state === "FAILED"));
    const badFilter = await api<{ error: { code: string } }>(base, "GET", "/api/v1/tasks?state=NOPE");
    assert.equal(badFilter.body.error.code, "VALIDATION_ERROR");
  });

  test("agent profiles: built-in mock runs the mock agent with this node; duplicates conflict", async () => {
    const list = await api<Array<{ id: string; command: string[]; builtin: boolean }>>(base, "GET", "/api/v1/agent-profiles");
    const mock = list.body.find((p) => p.id === "mock")!;
    assert.equal(mock.builtin, true);
    assert.equal(mock.command[0], process.execPath);
    assert.match(mock.command[1]!, /mock-agent[/\\]dist[/\\]cli\.js$/);
    const dup = await api(base, "POST", "/api/v1/agent-profiles", { id: "mock", name: "x", command: ["x"] });
    assert.equal(dup.status, 409);
    const generated = await api<{ id: string; builtin: boolean }>(base, "POST", "/api/v1/agent-profiles", { name: "Generated", command: ["x"] });
    assert.equal(generated.status, 201);
    assert.ok(generated.body.id.length > 0);
    assert.equal(generated.body.builtin, false);
  });
});
