// Prompts sent while a turn runs are queued and sent when it ends (docs/API.md "Prompts while a
// turn runs"), over the real agentctl and mock agent; the last describe restarts a real board
// process on the same database file.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import type { Message, QueuedPrompt, Session } from "@kandev/protocol";
import {
  WsClient,
  api,
  backendMain,
  createTask,
  eventually,
  getMessages,
  getSession,
  killBackendProcesses,
  requireBuilt,
  startBackendProcess,
  startTestServer,
  tempDir,
  waitForTaskState,
  type BackendProcess,
} from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;
type ErrorBody = { error: { code: string } };

const queue = (base: string, sessionId: string, text: string) =>
  api<{ queued: QueuedPrompt; turn_id?: string }>(base, "POST", `/api/v1/sessions/${sessionId}/prompt`, { text });

const userTexts = (messages: Message[]) => messages.filter((m) => m.author_type === "user").map((m) => m.content);
const agentTexts = (messages: Message[]) => messages.filter((m) => m.author_type === "agent" && m.type === "text").map((m) => m.content);

async function running(base: string, sessionId: string): Promise<void> {
  await eventually(async () => ((await getSession(base, sessionId)).state === "RUNNING" ? true : undefined), "the turn to run");
}

/** Waits until the agent has answered every one of `replies`, in turns of their own, and the session waits for input. */
async function answered(base: string, session: Session, replies: RegExp[]): Promise<Message[]> {
  return eventually(
    async () => {
      const s = await getSession(base, session.id);
      const messages = await getMessages(base, session.id);
      const texts = agentTexts(messages);
      return s.state === "WAITING_FOR_INPUT" && replies.every((r) => texts.some((t) => r.test(t))) ? messages : undefined;
    },
    `replies ${replies.join(", ")}`,
  );
}

describe("prompts while a turn runs (real agentctl and mock agent)", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("a prompt during a turn is queued (202 {queued}), shown and pushed on the session, then sent when the turn ends and answered", async () => {
    const { session } = await createTask(base, "/e2e:slow 30");
    const sub = await WsClient.connect(base);
    try {
      await sub.request("subscribe", { session_id: session.id });
      await running(base, session.id);
      const res = await queue(base, session.id, "/e2e:echo queued reply");
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.equal(res.body.turn_id, undefined, "no turn yet");
      assert.equal(res.body.queued.text, "/e2e:echo queued reply");
      const { id } = res.body.queued;
      const now = await getSession(base, session.id);
      assert.equal(now.state, "RUNNING");
      assert.deepEqual(now.queued_prompts, [res.body.queued]);
      await sub.waitFor(
        (f) => f.action === "session.updated" && (f.payload as { session: Session }).session.queued_prompts.some((q) => q.id === id),
        "session.updated carrying the queued prompt",
      );
      assert.ok(!userTexts(await getMessages(base, session.id)).includes("/e2e:echo queued reply"), "no user message while queued");

      const messages = await answered(base, session, [/queued reply/]);
      assert.deepEqual(userTexts(messages), ["/e2e:slow 30", "/e2e:echo queued reply"]);
      const slow = messages.find((m) => m.author_type === "agent" && /tick 30/.test(m.content));
      assert.ok(slow !== undefined, "the running turn finished before the queued prompt was sent");
      const queuedUser = messages.find((m) => m.content === "/e2e:echo queued reply")!;
      assert.notEqual(queuedUser.turn_id, slow.turn_id, "the queued prompt is a turn of its own");
      assert.ok(messages.indexOf(queuedUser) > messages.indexOf(slow), "its user message is written when it is sent");
      assert.deepEqual((await getSession(base, session.id)).queued_prompts, []);
      await sub.waitFor(
        (f) =>
          f.action === "session.updated" &&
          (f.payload as { session: Session }).session.queued_prompts.length === 0 &&
          (f.payload as { session: Session }).session.state === "RUNNING",
        "session.updated with the queue emptied as the queued turn starts",
      );
    } finally {
      sub.close();
    }
  });

  test("two queued prompts are sent in the order they came, each in a turn of its own", async () => {
    const { session } = await createTask(base, "/e2e:slow 20");
    await running(base, session.id);
    const first = await queue(base, session.id, "/e2e:echo first queued");
    const second = await queue(base, session.id, "/e2e:echo second queued");
    assert.deepEqual([first.status, second.status], [202, 202]);
    assert.deepEqual(
      (await getSession(base, session.id)).queued_prompts.map((q) => q.text),
      ["/e2e:echo first queued", "/e2e:echo second queued"],
      "oldest first",
    );
    const messages = await answered(base, session, [/first queued/, /second queued/]);
    assert.deepEqual(userTexts(messages), ["/e2e:slow 20", "/e2e:echo first queued", "/e2e:echo second queued"]);
    const texts = agentTexts(messages);
    assert.ok(texts.findIndex((t) => /first queued/.test(t)) < texts.findIndex((t) => /second queued/.test(t)));
    assert.equal(new Set(messages.filter((m) => m.author_type === "user").map((m) => m.turn_id)).size, 3);
  });

  test("a cancelled queued prompt is never sent (204, then 404); the others still are", async () => {
    const { session } = await createTask(base, "/e2e:slow 20");
    await running(base, session.id);
    const dropped = (await queue(base, session.id, "/e2e:echo never sent")).body.queued;
    await queue(base, session.id, "/e2e:echo still sent");
    const del = await api(base, "DELETE", `/api/v1/sessions/${session.id}/queued-prompts/${dropped.id}`);
    assert.equal(del.status, 204);
    assert.deepEqual(
      (await getSession(base, session.id)).queued_prompts.map((q) => q.text),
      ["/e2e:echo still sent"],
    );
    const again = await api<ErrorBody>(base, "DELETE", `/api/v1/sessions/${session.id}/queued-prompts/${dropped.id}`);
    assert.deepEqual([again.status, again.body.error.code], [404, "NOT_FOUND"]);
    assert.equal((await api(base, "DELETE", `/api/v1/sessions/nope/queued-prompts/${dropped.id}`)).status, 404);
    assert.equal((await api(base, "POST", `/api/v1/sessions/${session.id}/queued-prompts/nope/send-now`)).status, 404);
    const messages = await answered(base, session, [/still sent/]);
    assert.deepEqual(userTexts(messages), ["/e2e:slow 20", "/e2e:echo still sent"]);
    assert.ok(!agentTexts(messages).some((t) => /never sent/.test(t)));
  });

  test("send now cancels the running turn and sends that prompt first; the rest follow", async () => {
    const { session } = await createTask(base, "/e2e:hang");
    await running(base, session.id);
    await queue(base, session.id, "/e2e:echo waits its turn");
    const urgent = (await queue(base, session.id, "/e2e:echo urgent one")).body.queued;
    const res = await api<{ queued: QueuedPrompt }>(base, "POST", `/api/v1/sessions/${session.id}/queued-prompts/${urgent.id}/send-now`);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const messages = await answered(base, session, [/urgent one/, /waits its turn/]);
    assert.deepEqual(userTexts(messages), ["/e2e:hang", "/e2e:echo urgent one", "/e2e:echo waits its turn"]);
    assert.ok(
      messages.some((m) => m.type === "status" && m.content === "Turn cancelled"),
      "the hanging turn was cancelled",
    );
  });

  test("after a turn the operator cancelled the queue is held; send now then sends at once as a prompt", async () => {
    const { task, session } = await createTask(base, "/e2e:hang");
    await running(base, session.id);
    const held = (await queue(base, session.id, "/e2e:echo held back")).body.queued;
    assert.equal((await api(base, "POST", `/api/v1/sessions/${session.id}/cancel`)).status, 202);
    await waitForTaskState(base, task.id, "REVIEW");
    const waiting = await getSession(base, session.id);
    assert.equal(waiting.state, "WAITING_FOR_INPUT");
    assert.deepEqual(waiting.queued_prompts, [held], "held, not sent");
    const res = await api<{ turn_id: string }>(base, "POST", `/api/v1/sessions/${session.id}/queued-prompts/${held.id}/send-now`);
    assert.equal(res.status, 202);
    assert.equal(typeof res.body.turn_id, "string", "sent at once: a turn");
    const messages = await answered(base, session, [/held back/]);
    assert.equal(messages.find((m) => m.content === "/e2e:echo held back")?.turn_id, res.body.turn_id);
    assert.deepEqual((await getSession(base, session.id)).queued_prompts, []);
  });

  test("a blank prompt is still 400, while a turn runs as when it does not", async () => {
    const { task, session } = await createTask(base, "/e2e:slow 20");
    await running(base, session.id);
    const busy = await api<ErrorBody>(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "  \n " });
    assert.deepEqual([busy.status, busy.body.error.code], [400, "VALIDATION_ERROR"]);
    assert.deepEqual((await getSession(base, session.id)).queued_prompts, []);
    await waitForTaskState(base, task.id, "REVIEW");
    const idle = await api<ErrorBody>(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "" });
    assert.deepEqual([idle.status, idle.body.error.code], [400, "VALIDATION_ERROR"]);
  });
});

describe("queued prompts survive a board restart (real backend processes, same database file)", () => {
  requireBuilt([backendMain]);
  const dir = tempDir();
  const dbPath = path.join(dir, "kandev.db");
  let board: BackendProcess | undefined;
  after(async () => {
    if (board !== undefined && board.child.exitCode === null) {
      board.child.kill("SIGTERM");
      await board.exited;
    }
    killBackendProcesses();
  });

  test("the queue is kept, held while the session is interrupted, and send now resumes the session with it", async () => {
    const run1 = await startBackendProcess(dbPath);
    const { session } = await createTask(run1.url, "/e2e:hang");
    await running(run1.url, session.id);
    const kept = (await queue(run1.url, session.id, "/e2e:echo kept across the restart")).body.queued;
    run1.child.kill("SIGKILL");
    await run1.exited;

    board = await startBackendProcess(dbPath);
    const after = await getSession(board.url, session.id);
    assert.deepEqual([after.state, after.error], ["CANCELLED", "backend restarted"]);
    assert.deepEqual(after.queued_prompts, [kept], "the queued prompt is still there, not sent");
    const res = await api<{ turn_id: string }>(board.url, "POST", `/api/v1/sessions/${session.id}/queued-prompts/${kept.id}/send-now`);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(typeof res.body.turn_id, "string");
    const messages = await answered(board.url, after, [/kept across the restart/]);
    assert.deepEqual(userTexts(messages), ["/e2e:hang", "/e2e:echo kept across the restart"]);
    assert.deepEqual((await getSession(board.url, session.id)).queued_prompts, []);
  });
});
