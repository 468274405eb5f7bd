// PATCH /api/v1/tasks/:id (rename, move, archive) and the blank-text refusals, against a real
// server with a real SQLite file, agentctl and mock agent.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Session, Task } from "@kandev/protocol";
import {
  api,
  agentPids,
  createTask,
  eventually,
  getSession,
  getTask,
  isGoneOrZombie,
  newAgentPid,
  startTestServer,
  waitForTaskState,
} from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;
interface ErrorBody {
  error: { code: string; message: string; details?: { reason?: string } & Array<{ path: string; message: string; code?: string }> };
}

describe("PATCH /api/v1/tasks/:id", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  const patch = <T = Task>(id: string, body: unknown) => api<T>(base, "PATCH", `/api/v1/tasks/${id}`, body);

  test("renames a task (trimmed); a blank title is 400 VALIDATION_ERROR on title and changes nothing", async () => {
    const { task } = await createTask(base, "/e2e:echo hi");
    await waitForTaskState(base, task.id, "REVIEW");
    const renamed = await patch(task.id, { title: "  Better name " });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.title, "Better name");
    assert.equal((await getTask(base, task.id)).title, "Better name");
    const blank = await patch<ErrorBody>(task.id, { title: "   " });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.error.code, "VALIDATION_ERROR");
    assert.equal(blank.body.error.details?.[0]?.path, "title");
    assert.equal((await getTask(base, task.id)).title, "Better name");
  });

  test("a finished task moves to Done (its agent stops, session COMPLETED) and back to Review, where a prompt resumes it", async () => {
    const before = agentPids(server);
    const { task, session } = await createTask(base, "/e2e:echo first");
    const agent = await newAgentPid(server, before);
    await waitForTaskState(base, task.id, "REVIEW");
    const done = await patch(task.id, { state: "COMPLETED" });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.state, "COMPLETED");
    assert.equal((await getSession(base, session.id)).state, "COMPLETED");
    await eventually(() => (isGoneOrZombie(agent) ? true : undefined), "the agent process to end");
    const prompt = await api<ErrorBody>(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "/e2e:echo more" });
    assert.equal(prompt.status, 409, "a task in Done takes no prompt");

    const back = await patch(task.id, { state: "REVIEW" });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal(back.body.state, "REVIEW");
    const resumed = await api(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "/e2e:echo again" });
    assert.equal(resumed.status, 202, JSON.stringify(resumed.body));
    await eventually(async () => ((await getSession(base, session.id)).state === "WAITING_FOR_INPUT" ? true : undefined), "the resumed turn to end");
    assert.equal((await getTask(base, task.id)).state, "REVIEW");
  });

  test("illegal moves are refused with what is wrong: 400 for a state that follows the session, 409 for a move from the wrong column", async () => {
    const { task, session } = await createTask(base, "/e2e:hang");
    await eventually(async () => ((await getSession(base, session.id)).state === "RUNNING" ? true : undefined), "the turn to run");
    const toDone = await patch<ErrorBody>(task.id, { state: "COMPLETED" });
    assert.equal(toDone.status, 409);
    assert.equal(toDone.body.error.code, "CONFLICT");
    assert.equal(toDone.body.error.details?.reason, "turn_running");
    assert.match(toDone.body.error.message, /stop its turn first/);
    const archive = await patch<ErrorBody>(task.id, { archived: true });
    assert.equal(archive.status, 409, "a working agent is not archived out of sight");
    const toReview = await patch<ErrorBody>(task.id, { state: "REVIEW" });
    assert.equal(toReview.status, 409);
    assert.equal(toReview.body.error.details?.reason, "not_done");
    const toFailed = await patch<ErrorBody>(task.id, { state: "FAILED", title: "not applied" });
    assert.equal(toFailed.status, 400);
    assert.equal(toFailed.body.error.code, "VALIDATION_ERROR");
    assert.equal(toFailed.body.error.details?.[0]?.path, "state");
    assert.equal((await getTask(base, task.id)).title, "t", "a refused patch changes nothing");
    const unknown = await patch<ErrorBody>(task.id, { state: "DONE" });
    assert.equal(unknown.status, 400);
    const typo = await patch<ErrorBody>(task.id, { titel: "x" });
    assert.equal(typo.status, 400, "an unknown key is refused, not ignored");
    const empty = await patch<ErrorBody>(task.id, {});
    assert.equal(empty.status, 400);
    assert.equal((await patch<ErrorBody>("no-such-task", { title: "x" })).status, 404);
    await api(base, "POST", `/api/v1/sessions/${session.id}/cancel`);
    await waitForTaskState(base, task.id, "REVIEW");
  });

  test("archived tasks leave GET /tasks, are listed with ?archived=true, and are restored with archived: false", async () => {
    const { task } = await createTask(base, "/e2e:echo archive me");
    await waitForTaskState(base, task.id, "REVIEW");
    const archived = await patch(task.id, { archived: true });
    assert.equal(archived.status, 200);
    assert.equal(archived.body.archived, true);
    const board = (await api<Task[]>(base, "GET", "/api/v1/tasks")).body;
    assert.ok(!board.some((t) => t.id === task.id), "left off the board's list");
    const shelf = (await api<Task[]>(base, "GET", "/api/v1/tasks?archived=true")).body;
    assert.deepEqual(
      shelf.map((t) => [t.id, t.archived]),
      [[task.id, true]],
    );
    assert.equal((await getTask(base, task.id)).archived, true, "still readable by id");
    const bad = await api<ErrorBody>(base, "GET", "/api/v1/tasks?archived=yes");
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details?.[0]?.path, "archived");
    const restored = await patch(task.id, { archived: false });
    assert.equal(restored.body.archived, false);
    assert.ok((await api<Task[]>(base, "GET", "/api/v1/tasks")).body.some((t) => t.id === task.id));
    assert.equal((await api<Task[]>(base, "GET", "/api/v1/tasks?archived=true")).body.length, 0);
  });
});

describe("blank text is refused before anything starts", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("a whitespace-only prompt or title is 400 VALIDATION_ERROR on that field, and no task is created", async () => {
    const prompt = await api<ErrorBody>(base, "POST", "/api/v1/tasks", { title: "ok", prompt: " \n\t " });
    assert.equal(prompt.status, 400);
    assert.deepEqual(
      prompt.body.error.details?.map((d) => [d.path, d.code]),
      [["prompt", "custom"]],
    );
    const title = await api<ErrorBody>(base, "POST", "/api/v1/tasks", { title: "   ", prompt: "/e2e:echo hi" });
    assert.equal(title.status, 400);
    assert.deepEqual(
      title.body.error.details?.map((d) => [d.path, d.code]),
      [["title", "too_small"]],
    );
    assert.equal((await api<Task[]>(base, "GET", "/api/v1/tasks")).body.length, 0);
    assert.equal(server.childPids().length, 0, "no agent was started");
  });

  test("a whitespace-only follow-up prompt is 400 on text", async () => {
    const { task, session } = await createTask(base, "/e2e:echo hi");
    await waitForTaskState(base, task.id, "REVIEW");
    const r = await api<ErrorBody>(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "   " });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.details?.[0]?.path, "text");
    assert.equal((await api<Session>(base, "GET", `/api/v1/sessions/${session.id}`)).body.state, "WAITING_FOR_INPUT");
  });
});
