// ask_user_question_kandev end to end: the built mock agent calls agentctl's MCP tool as a real MCP
// client, agentctl relays it to the backend as kandev.ask_user_question, and the operator answers
// over REST. The flag is left off: the board's own tool does not depend on it.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { THREE_QUESTIONS } from "@kandev/mock-agent";
import {
  agentText,
  clarificationMessages,
  getClarification,
  promptsIn,
  respond,
  startLoggedTask,
  waitForClarifications,
  notificationsOf,
  waitForClarificationStatus,
} from "./clarification-helpers.js";
import { WsClient, api, getTask, startTestServer, waitForTaskState } from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe("ask_user_question_kandev over real processes", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("a ask-tool question: a bad answer is 400, the first answer reaches the agent with who answered, a later one is 409 with the winner (kandev-question)", async () => {
    const ws = await WsClient.connect(base);
    try {
      const { task, sessionId, logFile } = await startLoggedTask(base, server.dir, "kq", "/e2e:kandev-question");
      const [m] = await waitForClarifications(base, sessionId);
      const id = m!.metadata.pending_id as string;
      assert.match(id, /^[0-9a-f-]{36}$/);
      assert.deepEqual([m!.author_type, m!.requests_input, m!.metadata.source, m!.metadata.status], ["agent", true, "kandev_tool", "pending"]);
      assert.equal(m!.content, "Which database should the service use?");
      const questions = m!.metadata.questions as Array<{ id: string; kind: string; options: Array<{ id: string }> }>;
      assert.deepEqual(
        questions.map((q) => [q.id, q.kind, q.options.map((o) => o.id)]),
        [["database", "single", ["postgres", "sqlite"]]],
      );
      const waiting = await getTask(base, task.id);
      assert.deepEqual([waiting.state, waiting.pending_action], ["WAITING_FOR_INPUT", "clarification"]);
      await ws.waitFor((f) => f.action === "notification", "notification");
      assert.deepEqual(
        notificationsOf(ws).map((n) => [n.kind, n.pending_id]),
        [["session.clarification_requested", id]],
      );
      assert.ok(!JSON.stringify(notificationsOf(ws)).includes("Which database"));

      for (const bad of [
        { answers: [] },
        { answers: [{ question_id: "database", selected_options: ["postgres", "sqlite"] }] },
        { answers: [{ question_id: "database", selected_options: ["postgres"], custom_text: "both" }] },
        { answers: [{ question_id: "database", selected_options: ["mysql"] }] },
      ]) {
        const r = await respond(base, id, bad);
        assert.deepEqual([r.status, r.body.error?.code], [400, "VALIDATION_ERROR"], JSON.stringify(bad));
      }
      assert.equal((await getClarification(base, id)).status, "pending");

      const ok = await respond(base, id, { answers: [{ question_id: "database", selected_options: ["postgres"] }] });
      assert.deepEqual([ok.status, ok.body], [200, { success: true, status: "answered" }]);
      await waitForTaskState(base, task.id, "REVIEW");
      assert.match(
        await agentText(base, sessionId),
        /kandev tool result: The user answered:\n- Which database should the service use\?\n {2}Answer: Postgres/,
      );
      assert.equal(promptsIn(logFile).length, 1, "the answer continued the same prompt");

      const late = await respond(base, id, { answers: [{ question_id: "database", selected_options: ["sqlite"] }] });
      assert.equal(late.status, 409);
      assert.equal(late.body.error?.code, "CONFLICT");
      const details = late.body.error?.details as { status: string; resolution: { by: string; answers: unknown } };
      assert.equal(details.status, "answered");
      assert.deepEqual(details.resolution.answers, [{ question_id: "database", selected_options: ["postgres"] }]);
      assert.equal((details.resolution as { user?: string }).user, "local", "who answered, on a board without sign-in");
      const settled = (await clarificationMessages(base, sessionId))[0]!;
      assert.deepEqual([settled.requests_input, settled.metadata.status], [false, "answered"]);
    } finally {
      ws.close();
    }
  });

  test("three questions answered by picks and custom text; a Skip on a second bundle declines it (kandev-question-multi)", async () => {
    const { task, sessionId } = await startLoggedTask(base, server.dir, "kqm", "/e2e:kandev-question-multi");
    const [m] = await waitForClarifications(base, sessionId);
    assert.equal((m!.metadata.questions as unknown[]).length, THREE_QUESTIONS.questions.length);
    assert.match(m!.content, /^The agent asks:\n- Which database/);
    const answer = {
      answers: [
        { question_id: "database", selected_options: ["sqlite"] },
        { question_id: "auth", selected_options: [], custom_text: "Passkeys" },
        { question_id: "deploy", selected_options: ["k8s"] },
      ],
    };
    assert.equal((await respond(base, m!.metadata.pending_id as string, answer)).status, 200);
    await waitForTaskState(base, task.id, "REVIEW");
    const text = await agentText(base, sessionId);
    assert.match(text, /Answer: SQLite/);
    assert.match(text, /How should users sign in\?\n {2}Answer: Passkeys/);
    assert.match(text, /Answer: Kubernetes/);

    assert.equal((await api(base, "POST", `/api/v1/sessions/${sessionId}/prompt`, { text: "/e2e:kandev-question-multi" })).status, 202);
    const both = await waitForClarifications(base, sessionId, 2);
    const second = both[1]!.metadata.pending_id as string;
    const skipped = await respond(base, second, { answers: [], rejected: true, reject_reason: "decide later" });
    assert.deepEqual(skipped.body, { success: true, status: "declined" });
    await waitForTaskState(base, task.id, "REVIEW");
    assert.match(await agentText(base, sessionId), /The user skipped these questions: decide later/);
    const rec = await getClarification(base, second);
    assert.deepEqual([rec.status, rec.resolution?.by], ["declined", "operator_rejected"]);
  });

  test("input outside the tool's rules never becomes a clarification; the agent gets a tool error", async () => {
    const bad = JSON.stringify({ questions: [{ prompt: "Only one option?", options: [{ label: "yes" }] }] });
    const { task, sessionId } = await startLoggedTask(base, server.dir, "kqbad", `/e2e:kandev-question ${bad}`);
    await waitForTaskState(base, task.id, "REVIEW");
    assert.match(await agentText(base, sessionId), /kandev tool error: .*2-6 options/s);
    assert.equal((await clarificationMessages(base, sessionId)).length, 0);
    assert.equal((await getTask(base, task.id)).pending_action, null);
  });

  test("cancelling the turn withdraws the kandev question (cancelled, turn_cancelled); a late answer is 409 yet kept on the message", async () => {
    const { task, sessionId } = await startLoggedTask(base, server.dir, "kqcancel", "/e2e:kandev-question");
    const [m] = await waitForClarifications(base, sessionId);
    const id = m!.metadata.pending_id as string;
    assert.equal((await api(base, "POST", `/api/v1/sessions/${sessionId}/cancel`)).status, 202);
    const c = await waitForClarificationStatus(base, id, "cancelled");
    assert.equal(c.resolution?.by, "turn_cancelled");
    const t = await waitForTaskState(base, task.id, "REVIEW");
    assert.equal(t.pending_action, null);
    const late = await respond(base, id, { answers: [{ question_id: "database", selected_options: ["postgres"] }] });
    assert.equal(late.status, 409);
    assert.equal((late.body.error?.details as { status: string } | undefined)?.status, "cancelled");
    const msg = (await clarificationMessages(base, sessionId))[0]!;
    assert.deepEqual((msg.metadata.undelivered_answer as { answers: unknown }).answers, [
      { question_id: "database", selected_options: ["postgres"] },
    ]);
  });
});
