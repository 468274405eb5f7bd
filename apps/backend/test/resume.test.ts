// Resume after a restart, over real processes: the board (`node apps/backend/dist/main.js`) runs
// sessions, stops, starts again on the same database file, and a new prompt on a session whose
// agentctl died with the first run starts a fresh agentctl + agent for that same session.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import type { Message, Session } from "@kandev/protocol";
import {
  api,
  backendMain,
  createTask,
  eventually,
  getMessages,
  getSession,
  getTask,
  killBackendProcesses,
  requireBuilt,
  resumableAgent,
  startBackendProcess,
  tempDir,
  waitForTaskState,
  type BackendProcess,
} from "./helpers.js";

const FRESH_NOTE = /^The agent starts without memory of earlier turns/;

/** Sends a prompt and waits until its turn's agent text matches `reply`; returns the turn's messages. */
async function promptAndWait(base: string, session: Session, text: string, reply: RegExp): Promise<Message[]> {
  const res = await api<{ turn_id: string }>(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  const turnId = res.body.turn_id;
  await waitForTaskState(base, session.task_id, "REVIEW");
  return eventually(async () => {
    const turn = (await getMessages(base, session.id)).filter((m) => m.turn_id === turnId);
    return turn.some((m) => m.author_type === "agent" && m.type === "text" && reply.test(m.content)) ? turn : undefined;
  }, `a reply matching ${reply}`);
}

describe("resume after a restart (real backend processes, same database file)", () => {
  requireBuilt([backendMain]);
  const dir = tempDir();
  const dbPath = path.join(dir, "kandev.db");
  const store = path.join(dir, "resumable-sessions.json");
  let board: BackendProcess;
  const first: Record<"mock" | "resumable" | "interrupted" | "failed", Session> = {} as never;

  before(async () => {
    const run1 = await startBackendProcess(dbPath);
    const profile = await api(run1.url, "POST", "/api/v1/agent-profiles", {
      id: "resumable",
      name: "Resumable",
      command: [process.execPath, resumableAgent],
      env: { RESUMABLE_AGENT_STORE: store },
    });
    assert.equal(profile.status, 201);
    const mock = await createTask(run1.url, "/e2e:echo first turn");
    const resumable = await createTask(run1.url, "remember the cat", { agent_profile_id: "resumable" });
    const interrupted = await createTask(run1.url, "/e2e:hang");
    const failed = await createTask(run1.url, "/e2e:crash");
    await waitForTaskState(run1.url, mock.task.id, "REVIEW");
    await waitForTaskState(run1.url, resumable.task.id, "REVIEW");
    await waitForTaskState(run1.url, failed.task.id, "FAILED");
    await eventually(async () => ((await getSession(run1.url, interrupted.session.id)).state === "RUNNING" ? true : undefined), "hang turn running");
    for (const [k, v] of Object.entries({ mock, resumable, interrupted, failed }))
      first[k as keyof typeof first] = await getSession(run1.url, v.session.id);
    run1.child.kill("SIGTERM");
    assert.deepEqual(await run1.exited, { code: 0, signal: null });
    board = await startBackendProcess(dbPath);
  });
  after(async () => {
    if (board !== undefined && board.child.exitCode === null) {
      board.child.kill("SIGTERM");
      await board.exited;
    }
    killBackendProcesses();
  });

  test("an agent without loadSession (the mock): a fresh ACP session, a status saying it has no memory, and the reply arrives", async () => {
    const before = await getSession(board.url, first.mock.id);
    assert.deepEqual([before.state, before.error], ["WAITING_FOR_INPUT", "backend restarted"]);
    const turn = await promptAndWait(board.url, before, "/e2e:echo hello after the restart", /hello after the restart/);
    assert.deepEqual(
      turn.map((m) => [m.author_type, m.type]),
      [
        ["user", "text"],
        ["agent", "status"],
        ["agent", "text"],
      ],
    );
    assert.match(turn[1]!.content, FRESH_NOTE);
    const after = await getSession(board.url, first.mock.id);
    assert.deepEqual([after.state, after.error], ["WAITING_FOR_INPUT", null]);
    assert.ok(after.acp_session_id !== null && after.acp_session_id !== first.mock.acp_session_id, "a new ACP session");
    // Now live again: the next prompt is an ordinary turn, no second note.
    const next = await promptAndWait(board.url, after, "/e2e:echo and once more", /and once more/);
    assert.ok(!next.some((m) => m.type === "status"));
  });

  test("an agent with loadSession: session/load of the stored ACP session; the agent remembers; no replayed history in the transcript", async () => {
    const session = await getSession(board.url, first.resumable.id);
    assert.equal(session.error, "backend restarted");
    const turn = await promptAndWait(board.url, session, "what was it?", /^turn 2; earlier: remember the cat$/);
    assert.ok(!turn.some((m) => m.type === "status"), "no 'without memory' note when the session was loaded");
    const after = await getSession(board.url, first.resumable.id);
    assert.equal(after.acp_session_id, first.resumable.acp_session_id, "the same ACP session");
    const all = await getMessages(board.url, session.id);
    assert.ok(!all.some((m) => m.content.includes("(replay)")), "the history the agent replayed while loading is not appended");
    assert.equal(all.filter((m) => m.author_type === "agent" && m.type === "text").length, 2);
  });

  test("a session the restart interrupted (CANCELLED) resumes too, and a second prompt while it starts is queued and sent after", async () => {
    const session = await getSession(board.url, first.interrupted.id);
    assert.deepEqual([session.state, session.error], ["CANCELLED", "backend restarted"]);
    assert.equal((await getTask(board.url, session.task_id)).state, "CANCELLED");
    const res = await api<{ turn_id: string }>(board.url, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "/e2e:echo back again" });
    assert.equal(res.status, 202);
    const busy = await api<{ queued: { text: string } }>(board.url, "POST", `/api/v1/sessions/${session.id}/prompt`, {
      text: "/e2e:echo and after it",
    });
    assert.deepEqual([busy.status, busy.body.queued.text], [202, "/e2e:echo and after it"]);
    await eventually(
      async () =>
        (await getMessages(board.url, session.id)).some((m) => m.turn_id === res.body.turn_id && /back again/.test(m.content)) ? true : undefined,
      "reply",
    );
    await eventually(
      async () =>
        (await getMessages(board.url, session.id)).some((m) => m.author_type === "agent" && /and after it/.test(m.content)) ? true : undefined,
      "the queued prompt's reply",
    );
    await waitForTaskState(board.url, session.task_id, "REVIEW");
  });

  test("a session that failed before the restart still takes no prompt", async () => {
    assert.equal((await getSession(board.url, first.failed.id)).state, "FAILED");
    const res = await api(board.url, "POST", `/api/v1/sessions/${first.failed.id}/prompt`, { text: "hi" });
    assert.equal(res.status, 409);
  });
});
