// Elicitation-backed clarifications over real processes: the backend in-process with
// features.acpElicitation on, the built agentctl and the built mock agent, whose wire log shows
// exactly what reached ACP.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Message, Task } from "@kandev/protocol";
import {
  AgentctlRecorder,
  agentText,
  clarificationMessages,
  elicitationAnswers,
  getClarification,
  notificationsOf,
  promptsIn,
  respond,
  startLoggedTask,
  waitForClarifications,
  waitForClarificationStatus,
  waitForTask,
  wireLog,
} from "./clarification-helpers.js";
import { WsClient, api, eventually, getMessages, getTask, isGoneOrZombie, startTestServer, waitForTaskState } from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;
const RED = { answers: [{ question_id: "question_0", selected_options: ["Red"] }] };
const QUESTION_TEXTS = ["Which colour should the button be?", "Which platforms should ship it?", "Please answer the following questions."];

describe("elicitations become clarifications (flag on, real agentctl + mock agent)", () => {
  let server: Server;
  let base: string;
  const rec = new AgentctlRecorder();
  before(async () => {
    server = await startTestServer({
      flagEnv: { "features.acpElicitation": true },
      onAgentRequest: rec.onAgentRequest,
      onAgentEvent: rec.onAgentEvent,
    });
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("a question becomes a message, a pending action and one notification; the answer continues the same prompt and agentctl's settle event records it with who answered; a second answer is agentctl's 404 (elicit-ask; AC-08 F9 AC-13 AC-20b AC-12g AC-61)", async () => {
    const ws = await WsClient.connect(base);
    try {
      await ws.request("subscribe", { board: true });
      const { task, sessionId, logFile } = await startLoggedTask(base, server.dir, "ask", "/e2e:elicit-ask");
      const [message] = await waitForClarifications(base, sessionId);
      const m = message!;
      // AC-08: agent-authored, requests input, pending id, source, kinds + companions (F6), deadline, turn.
      assert.deepEqual([m.author_type, m.type, m.requests_input], ["agent", "clarification_request", true]);
      const pendingId = m.metadata.pending_id as string;
      assert.deepEqual(rec.requestedIds(sessionId), [pendingId], "agentctl's pending id, verbatim (AC-60)");
      assert.equal(m.metadata.source, "elicitation");
      assert.equal(m.metadata.status, "pending");
      assert.equal(m.metadata.tool_call_id, "toolu_fake_1");
      assert.ok(Date.parse(m.metadata.deadline as string) > Date.now());
      const questions = m.metadata.questions as Array<{ id: string; kind: string; companion?: { id: string; title?: string } }>;
      assert.deepEqual(
        questions.map((q) => [q.id, q.kind, q.companion?.id, q.companion?.title]),
        [
          ["question_0", "single", "question_0_custom", "Other"],
          ["question_1", "multi", "question_1_custom", "Other"],
        ],
      );
      const session = (await api<{ current_turn_id: string }>(base, "GET", `/api/v1/sessions/${sessionId}`)).body;
      assert.equal(m.turn_id, session.current_turn_id);
      const waiting = await getTask(base, task.id);
      assert.deepEqual([waiting.state, waiting.pending_action, waiting.turn_active], ["WAITING_FOR_INPUT", "clarification", true]);
      // The record, in the DECISIONS §3 shape, and the list filters.
      const record = await getClarification(base, pendingId);
      assert.deepEqual([record.session_id, record.task_id, record.source, record.status], [sessionId, task.id, "elicitation", "pending"]);
      assert.deepEqual(
        (await api<Array<{ pending_id: string }>>(base, "GET", `/api/v1/clarifications?session_id=${sessionId}&status=pending`)).body.map(
          (c) => c.pending_id,
        ),
        [pendingId],
      );
      assert.equal((await api<unknown[]>(base, "GET", `/api/v1/clarifications?session_id=${sessionId}&status=answered`)).body.length, 0);
      assert.equal((await api(base, "GET", "/api/v1/clarifications?status=nope")).status, 400);
      // F9: exactly one notification for it, naming the task and never the question.
      await ws.waitFor((f) => f.action === "notification", "the clarification notification");
      const sent = notificationsOf(ws).filter((n) => n.pending_id === pendingId);
      assert.equal(sent.length, 1);
      assert.deepEqual([sent[0]!.kind, sent[0]!.title, sent[0]!.task_id], ["session.clarification_requested", "Task ask", task.id]);
      for (const text of QUESTION_TEXTS) assert.ok(!JSON.stringify(sent[0]).includes(text), `notification leaks "${text}"`);

      const ok = await respond(base, pendingId, RED);
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.body, { success: true, status: "answered" });
      // AC-20b: it travelled as agent.elicitations.respond on the agent stream.
      assert.deepEqual(rec.respondsOf(sessionId), [{ pending_id: pendingId, ...RED, user: "local" }]);
      // agentctl's settle event carries the answer and who gave it: the one record of the outcome.
      const settleEvents = rec.events.filter((e) => e.sessionId === sessionId && e.event.name === "elicitation.settled").map((e) => e.event.payload);
      assert.deepEqual(settleEvents, [{ pending_id: pendingId, outcome: "answered", reason: "operator", ...RED, user: "local" }]);
      await waitForTaskState(base, task.id, "REVIEW");
      assert.match(await agentText(base, sessionId), /elicitation response: \{"action":"accept","content":\{"question_0":"Red"\}\}/);
      const settled = (await clarificationMessages(base, sessionId))[0]!;
      assert.equal(settled.requests_input, false);
      assert.equal(settled.metadata.status, "answered");
      assert.deepEqual((settled.metadata.resolution as { by: string; answers: unknown }).answers, RED.answers);
      assert.deepEqual(
        [(settled.metadata.resolution as { by: string }).by, (settled.metadata.resolution as { user?: string }).user],
        ["operator", "local"],
      );
      assert.ok(ws.frames.some((f) => f.action === "task.updated" && (f.payload as { task: Task }).task.pending_action === "clarification"));

      // AC-13: one session/prompt, and that request is the one answered with the stop reason, after the answer.
      const prompts = promptsIn(logFile);
      assert.equal(prompts.length, 1);
      const answers = elicitationAnswers(logFile);
      assert.equal(answers.length, 1);
      const promptResult = await eventually(
        () =>
          wireLog(logFile).find(
            (l) => l.dir === "out" && JSON.stringify(l.frame.id) === JSON.stringify(prompts[0]!.frame.id) && l.frame.result !== undefined,
          ),
        "the prompt's response",
      );
      assert.equal(promptResult.frame.result?.stopReason, "end_turn");
      assert.ok(promptResult.ts >= answers[0]!.ts, "the original prompt returned after the answer");

      // AC-12g / AC-61: the second answer is still forwarded; agentctl's NOT_FOUND is what the operator sees.
      const again = await respond(base, pendingId, RED);
      assert.equal(again.status, 404);
      assert.equal(again.body.error?.code, "NOT_FOUND");
      assert.match(again.body.error?.message ?? "", /no pending elicitation/, "agentctl's own words");
      assert.equal(rec.respondsOf(sessionId).length, 2, "both submissions reached agentctl");
      assert.equal(elicitationAnswers(logFile).length, 1, "the agent saw exactly one response");
      assert.equal((await getClarification(base, pendingId)).status, "answered");
    } finally {
      ws.close();
    }
  });

  test("two identical questions are two records with agentctl's ids; answering one leaves the other pending (elicit-twice; AC-12f AC-60)", async () => {
    const { task, sessionId, logFile } = await startLoggedTask(base, server.dir, "twice", "/e2e:elicit-twice");
    const ms = await waitForClarifications(base, sessionId, 2);
    const ids = ms.map((m) => m.metadata.pending_id as string);
    assert.equal(new Set(ids).size, 2);
    assert.deepEqual([...ids].sort(), [...rec.requestedIds(sessionId)].sort(), "both ids are agentctl's, verbatim");
    for (const id of ids) assert.match(id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(ms[0]!.metadata.questions, ms[1]!.metadata.questions, "identical questions, not deduplicated (D4)");
    assert.equal((await respond(base, ids[0]!, RED)).status, 200);
    assert.equal((await getClarification(base, ids[1]!)).status, "pending");
    await eventually(() => (elicitationAnswers(logFile).length === 1 ? true : undefined), "the first answer on the wire");
    const still = await getTask(base, task.id);
    assert.deepEqual([still.state, still.pending_action], ["WAITING_FOR_INPUT", "clarification"]);
    assert.equal((await respond(base, ids[1]!, { answers: [], rejected: true })).body.status, "declined");
    await waitForTaskState(base, task.id, "REVIEW");
    assert.equal(elicitationAnswers(logFile).length, 2);
    assert.match(await agentText(base, sessionId), /#2: \{"action":"decline"\}/);
  });

  test("ten operators answering one question at once get one 200 and nine 404s from agentctl, and the agent one response (D5)", async () => {
    const { task, sessionId, logFile } = await startLoggedTask(base, server.dir, "race", "/e2e:elicit-ask");
    const [m] = await waitForClarifications(base, sessionId);
    const id = m!.metadata.pending_id as string;
    // F10: agentctl validates; a bad answer is 400, sends nothing, the record stays open.
    const bad = await respond(base, id, { answers: [{ question_id: "question_9", selected_options: ["Red"] }] });
    assert.deepEqual([bad.status, bad.body.error?.code], [400, "VALIDATION_ERROR"]);
    const malformed = await respond(base, id, { answers: [{ question_id: "question_0", selected_options: "Red" }] });
    assert.deepEqual([malformed.status, malformed.body.error?.code], [400, "VALIDATION_ERROR"]);
    const huge = await respond(base, id, { answers: [], reject_reason: "x".repeat(1024 * 1024) });
    assert.equal(huge.status, 413);
    assert.equal(rec.respondsOf(sessionId).length, 1, "only the schema-valid bad answer was forwarded");
    assert.equal((await getClarification(base, id)).status, "pending");
    assert.equal(elicitationAnswers(logFile).length, 0);
    const results = await Promise.all(Array.from({ length: 10 }, () => respond(base, id, RED)));
    const codes = results.map((r) => r.status).sort();
    assert.deepEqual(codes, [200, 404, 404, 404, 404, 404, 404, 404, 404, 404]);
    assert.equal(rec.respondsOf(sessionId).length, 11, "every submission was forwarded");
    await waitForTaskState(base, task.id, "REVIEW");
    assert.equal(elicitationAnswers(logFile).length, 1);
    assert.equal((await respond(base, "no-such-id", RED)).status, 404);
  });

  test("the agent withdrawing its question ($/cancel_request) reads cancelled on record and message, pushed, and the task no longer waits (F7)", async () => {
    const ws = await WsClient.connect(base);
    try {
      const { task, sessionId } = await startLoggedTask(base, server.dir, "withdrawn", "/e2e:elicit-agent-cancel 1500");
      await ws.request("subscribe", { task_id: task.id });
      const [m] = await waitForClarifications(base, sessionId);
      const id = m!.metadata.pending_id as string;
      const c = await waitForClarificationStatus(base, id, "cancelled");
      assert.equal(c.resolution?.by, "agent_cancelled");
      await ws.waitFor(
        (f) =>
          f.action === "session.message.updated" &&
          (f.payload as { message: Message }).message.id === m!.id &&
          (f.payload as { message: Message }).message.metadata.status === "cancelled",
        "the withdrawn message pushed",
      );
      const t = await waitForTaskState(base, task.id, "REVIEW");
      assert.equal(t.pending_action, null);
      const late = await respond(base, id, RED);
      assert.equal(late.status, 404, "agentctl no longer knows it");
    } finally {
      ws.close();
    }
  });

  test("cancelling the turn settles the question cancelled (turn_cancelled) and the agent gets cancel (F7, AC-15)", async () => {
    const { task, sessionId, logFile } = await startLoggedTask(base, server.dir, "turncancel", "/e2e:elicit-ask");
    const [m] = await waitForClarifications(base, sessionId);
    const id = m!.metadata.pending_id as string;
    assert.equal((await api(base, "POST", `/api/v1/sessions/${sessionId}/cancel`)).status, 202);
    const c = await waitForClarificationStatus(base, id, "cancelled");
    assert.equal(c.resolution?.by, "turn_cancelled");
    const t = await waitForTaskState(base, task.id, "REVIEW");
    assert.equal(t.pending_action, null);
    await eventually(() => (elicitationAnswers(logFile).length === 1 ? true : undefined), "the cancel on the wire");
    assert.deepEqual(elicitationAnswers(logFile)[0]!.frame.result, { action: "cancel" });
  });

  test("agentctl killed with a question open: agent_disconnected within 2 s; a late answer is 404 but kept on the message (F7)", async () => {
    const { task, sessionId } = await startLoggedTask(base, server.dir, "killed", "/e2e:elicit-ask");
    const [m] = await waitForClarifications(base, sessionId);
    const [pid] = server.childPids();
    assert.ok(pid !== undefined, "this host's agentctl");
    const id = m!.metadata.pending_id as string;
    const killedAt = Date.now();
    process.kill(pid, "SIGKILL");
    await waitForClarificationStatus(base, id, "agent_disconnected", 2_000);
    assert.ok(Date.now() - killedAt < 2_000);
    // Mid-turn when agentctl died: interrupted, as after a backend restart (resumable).
    const t = await waitForTask(base, task.id, (x) => x.state === "CANCELLED", "task interrupted");
    assert.equal(t.pending_action, null);
    const late = await respond(base, id, RED);
    assert.equal(late.status, 404);
    const settled = (await getMessages(base, sessionId)).find((x) => x.id === m!.id)!;
    assert.equal(settled.metadata.status, "agent_disconnected");
    assert.equal(settled.requests_input, false);
    assert.deepEqual((settled.metadata.undelivered_answer as { answers: unknown }).answers, RED.answers, "nothing answered is lost");
    await eventually(() => (isGoneOrZombie(pid) ? true : undefined), "agentctl gone");
  });
});
