// Restart reconciliation with clarifications in flight: the board stops (its agentctls with it)
// and starts again on the same database. Questions nobody can answer any more read
// agent_disconnected; answered ones keep their answer; finished work stays in REVIEW.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Clarification, Task } from "@kandev/protocol";
import {
  clarificationMessages,
  getClarification,
  respond,
  startLoggedTask,
  waitForClarifications,
  waitForClarificationStatus,
} from "./clarification-helpers.js";
import { api, getSession, getTask, startTestServer, tempDir, waitForTaskState } from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;
const RED = { answers: [{ question_id: "question_0", selected_options: ["Red"] }] };
const PG = { answers: [{ question_id: "database", selected_options: ["postgres"] }] };

describe("restart with clarifications in flight", () => {
  const dir = tempDir();
  let server: Server | null = null;
  after(async () => {
    await server?.close();
  });
  const start = async () => (server = await startTestServer({ dir, flagEnv: { "features.acpElicitation": true } }));

  test("after a restart pending records read agent_disconnected, answered ones keep their answer, REVIEW stays REVIEW, and late answers are kept on the message", async () => {
    const first = await start();
    const done = await startLoggedTask(first.url, dir, "done", "/e2e:plain");
    await waitForTaskState(first.url, done.task.id, "REVIEW");
    const twice = await startLoggedTask(first.url, dir, "twice", "/e2e:elicit-twice");
    const [a, b] = (await waitForClarifications(first.url, twice.sessionId, 2)).map((m) => m.metadata.pending_id as string);
    assert.equal((await respond(first.url, a!, RED)).status, 200);
    await waitForClarificationStatus(first.url, a!, "answered");
    const kandev = await startLoggedTask(first.url, dir, "kandev", "/e2e:kandev-question");
    const [k] = (await waitForClarifications(first.url, kandev.sessionId)).map((m) => m.metadata.pending_id as string);
    await first.close();

    const second = await start();
    const base = second.url;
    assert.deepEqual((await api<Clarification[]>(base, "GET", "/api/v1/clarifications?status=pending")).body, []);
    for (const id of [b!, k!]) {
      const c = await getClarification(base, id);
      assert.deepEqual([c.status, c.resolution?.by], ["agent_disconnected", "backend_restarted"], id);
    }
    const answered = await getClarification(base, a!);
    assert.equal(answered.status, "answered");
    assert.deepEqual(answered.resolution?.answers, RED.answers);
    for (const m of [...(await clarificationMessages(base, twice.sessionId)), ...(await clarificationMessages(base, kandev.sessionId))]) {
      assert.equal(m.requests_input, false, `${m.metadata.pending_id} no longer asks`);
    }
    // Mid-turn sessions were interrupted; the finished one is still work to review.
    for (const t of [twice.task, kandev.task]) {
      const now = await getTask(base, t.id);
      assert.deepEqual([now.state, now.pending_action], ["CANCELLED", null]);
    }
    const review: Task = await getTask(base, done.task.id);
    assert.equal(review.state, "REVIEW");
    assert.equal((await getSession(base, done.sessionId)).error, "backend restarted");

    // Nothing answered is lost: late answers are refused yet written on the message.
    const lateElicitation = await respond(base, b!, RED);
    assert.equal(lateElicitation.status, 404);
    const lateKandev = await respond(base, k!, PG);
    assert.equal(lateKandev.status, 409);
    assert.equal((lateKandev.body.error?.details as { status: string } | undefined)?.status, "agent_disconnected");
    const bMessage = (await clarificationMessages(base, twice.sessionId)).find((m) => m.metadata.pending_id === b)!;
    assert.deepEqual((bMessage.metadata.undelivered_answer as { answers: unknown }).answers, RED.answers);
    const kMessage = (await clarificationMessages(base, kandev.sessionId))[0]!;
    assert.deepEqual((kMessage.metadata.undelivered_answer as { answers: unknown }).answers, PG.answers);
    assert.equal((await getClarification(base, b!)).status, "agent_disconnected", "a late answer settles nothing");
  });
});
