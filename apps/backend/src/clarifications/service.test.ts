// The clarification store and the answer fork over a real SQLite file, with agentctl played by a
// scripted target. The same paths run over real processes in test/clarifications-*.test.ts; here
// the interleavings that real processes cannot force are pinned (collisions, withheld events,
// a locked database).
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import { ProtocolError } from "@kandev/protocol";
import { ANSWER, captureStatements, clarificationBoard, httpError, KANDEV_INPUT } from "../../test/clarification-service-fixture.js";
import * as messagesRepo from "../repos/messages.js";
import { ClarificationService } from "./service.js";

/** The statements between the first BEGIN and its COMMIT. */
function firstTransaction(statements: readonly string[]): string[] {
  const begin = statements.findIndex((s) => s.startsWith("BEGIN"));
  const commit = statements.findIndex((s, i) => i > begin && s.startsWith("COMMIT"));
  assert.ok(begin >= 0 && commit > begin, statements.join("\n"));
  return statements.slice(begin + 1, commit);
}
const writes = (statements: readonly string[]) => statements.filter((s) => /^(insert|update|delete|BEGIN)/i.test(s));

describe("ClarificationService over SQLite", () => {
  let b: ReturnType<typeof clarificationBoard>;
  before(() => (b = clarificationBoard()));
  after(() => b.close());

  test("an elicitation becomes a pending record and message, its task's pending action commits with them, then message, task and one notification are pushed (AC-08, F9)", async () => {
    const { ctx } = b.liveSession();
    b.recorder.order = [];
    const executed = await captureStatements(b.handle, () => void assert.equal(b.service.onElicitationRequested(ctx, b.requested("e-1")), true));
    const tx = firstTransaction(executed);
    assert.deepEqual(
      tx.filter((s) => /^(insert|update)/.test(s)),
      ['insert into "messages"', 'insert into "clarifications"', 'update "tasks" set'],
      "record, message and task in one transaction",
    );
    const m = b.messageOf("e-1");
    assert.deepEqual([m.author_type, m.type, m.requests_input, m.turn_id], ["agent", "clarification_request", true, ctx.turnId]);
    assert.equal(m.metadata.source, "elicitation");
    assert.deepEqual(b.recorder.order, [`message:${m.id}`, `task:${ctx.taskId}`, "notification:e-1"]);
    assert.deepEqual([b.task(ctx).state, b.task(ctx).pendingAction], ["WAITING_FOR_INPUT", "clarification"]);
    const sent = b.recorder.notifications.filter((n) => n.pending_id === "e-1");
    assert.equal(sent.length, 1);
    assert.doesNotMatch(JSON.stringify(sent[0]), /Which colour/);
  });

  test("a settle commits the record and its task's pending action in one transaction, then pushes the message and the task (F7)", async () => {
    const { ctx } = b.liveSession();
    b.service.onElicitationRequested(ctx, b.requested("st-1"));
    b.recorder.order = [];
    const executed = await captureStatements(b.handle, () =>
      b.service.onElicitationSettled(ctx, { pending_id: "st-1", outcome: "timed_out", reason: "deadline" }),
    );
    assert.deepEqual(writes(firstTransaction(executed)), ['update "clarifications" set', 'update "tasks" set']);
    const m = b.messageOf("st-1");
    assert.deepEqual([m.requests_input, m.metadata.status], [false, "timed_out"]);
    assert.deepEqual(b.recorder.order, [`updated:${m.id}`, `task:${ctx.taskId}`]);
    assert.deepEqual([b.task(ctx).state, b.task(ctx).pendingAction], ["IN_PROGRESS", null]);
    // The message row itself holds no status: the record is its one owner.
    const row = messagesRepo.getMessage(b.handle.db, m.id)!;
    assert.deepEqual([row.requestsInput, row.metadata.status], [false, undefined]);
  });

  test("the settle event alone records an answer: agentctl's success with its settle event withheld leaves the record pending, and answering wrote nothing", async () => {
    const { ctx, target } = b.liveSession();
    b.service.onElicitationRequested(ctx, b.requested("w-1"));
    target.withholdSettle = true;
    const executed = await captureStatements(b.handle, async () => {
      assert.deepEqual(await b.service.respond("w-1", ANSWER, "local"), { success: true, status: "answered" });
    });
    assert.deepEqual(writes(executed), [], "no write on the answer path");
    assert.deepEqual(target.sent, [{ pending_id: "w-1", ...ANSWER, user: "local" }], "forwarded with who answered");
    assert.equal(b.service.get("w-1")!.status, "pending");
    assert.equal(b.task(ctx).pendingAction, "clarification");
    b.service.onElicitationSettled(ctx, { pending_id: "w-1", outcome: "answered", reason: "operator", ...ANSWER, user: "local" });
    const settled = b.service.get("w-1")!;
    assert.deepEqual([settled.status, settled.resolution?.answers, settled.resolution?.user], ["answered", ANSWER.answers, "local"]);
  });

  test("the operator's settle event records what was chosen, the Skip's reason and who answered", async () => {
    const { ctx } = b.liveSession();
    b.service.onElicitationRequested(ctx, b.requested("e-skip"));
    const r = await b.service.respond("e-skip", { answers: [], rejected: true, reject_reason: "not now" }, "local");
    assert.deepEqual(r, { success: true, status: "declined" });
    const { resolution } = b.service.get("e-skip")!;
    assert.deepEqual(
      [resolution?.by, resolution?.answers, resolution?.reject_reason, resolution?.user],
      ["operator_rejected", [], "not now", "local"],
    );
    assert.equal(b.messageOf("e-skip").metadata.reject_reason, "not now");
  });

  test("identical elicitations are two records; answering one leaves the other pending (AC-12f, D4)", async () => {
    const { ctx, target } = b.liveSession();
    b.service.onElicitationRequested(ctx, b.requested("e-a"));
    b.service.onElicitationRequested(ctx, b.requested("e-b"));
    assert.deepEqual(await b.service.respond("e-a", ANSWER, "local"), { success: true, status: "answered" });
    assert.deepEqual(
      target.sent.map((p) => p.pending_id),
      ["e-a"],
    );
    assert.equal(b.service.get("e-b")!.status, "pending");
    assert.equal(b.task(ctx).pendingAction, "clarification");
  });

  test("an answered elicitation is still forwarded; agentctl's NOT_FOUND is the operator's 404 and the record keeps the winner (AC-61, D5)", async () => {
    const { ctx, target } = b.liveSession();
    b.service.onElicitationRequested(ctx, b.requested("e-twice"));
    await b.service.respond("e-twice", ANSWER, "local");
    const err = await httpError(b.service.respond("e-twice", { answers: [{ question_id: "question_0", selected_options: ["Blue"] }] }, "local"));
    assert.deepEqual([err.status, err.code, err.message], [404, "NOT_FOUND", "no pending elicitation e-twice"]);
    assert.equal(target.sent.length, 2, "the second submission reached agentctl");
    assert.equal(b.service.get("e-twice")!.status, "answered");
    assert.deepEqual(b.service.get("e-twice")!.resolution?.answers, ANSWER.answers);
  });

  test("agentctl's refusals change no record: VALIDATION_ERROR is 400, NOT_CONNECTED 503, NOT_FOUND 404, and it stays as agentctl's events left it (F10, AC-20a)", async () => {
    const { ctx, target } = b.liveSession();
    b.service.onElicitationRequested(ctx, b.requested("e-v"));
    target.verdicts.push(
      new ProtocolError("VALIDATION_ERROR", "unknown question_id"),
      new ProtocolError("NOT_CONNECTED", "down"),
      new ProtocolError("NOT_FOUND", "gone"),
    );
    assert.equal((await httpError(b.service.respond("e-v", ANSWER, "local"))).status, 400);
    const down = await httpError(b.service.respond("e-v", ANSWER, "local"));
    assert.deepEqual([down.status, down.code], [503, "agent_stream_not_connected"]);
    assert.equal((await httpError(b.service.respond("e-v", ANSWER, "local"))).status, 404);
    assert.equal(b.service.get("e-v")!.status, "pending", "only agentctl's settle event would end it");
    assert.equal(b.messageOf("e-v").requests_input, true);
  });

  test("agentctl's settle events mark record and message, and the task no longer waits; the first settle wins and another execution cannot touch it (F7)", () => {
    const { ctx } = b.liveSession();
    for (const [id, outcome, reason, status] of [
      ["s-1", "timed_out", "deadline", "timed_out"],
      ["s-2", "cancelled", "agent_cancelled", "cancelled"],
      ["s-3", "cancelled", "agent_exited", "agent_disconnected"],
    ] as const) {
      b.service.onElicitationRequested(ctx, b.requested(id));
      b.service.onElicitationSettled(ctx, { pending_id: id, outcome, reason });
      const m = b.messageOf(id);
      assert.deepEqual([m.requests_input, m.metadata.status, (m.metadata.resolution as { by: string }).by], [false, status, reason]);
    }
    assert.deepEqual([b.task(ctx).state, b.task(ctx).pendingAction], ["IN_PROGRESS", null]);
    b.service.onElicitationSettled({ ...ctx, executionId: "someone-else" }, { pending_id: "s-1", outcome: "answered", reason: "operator" });
    b.service.onElicitationSettled(ctx, { pending_id: "s-1", outcome: "answered", reason: "operator" });
    assert.equal(b.service.get("s-1")!.status, "timed_out");
  });

  test("agentctl gone: its records of both sources settle agent_disconnected; a late answer is 404 and kept on the message", async () => {
    const { ctx, target } = b.liveSession();
    b.service.onElicitationRequested(ctx, b.requested("g-1"));
    const asked = b.service.askKandev(ctx, { session_id: null, questions: KANDEV_INPUT.questions });
    assert.equal(b.service.settleExecution(ctx.executionId), 2);
    await assert.rejects(asked, (err: unknown) => err instanceof ProtocolError && err.code === "NOT_CONNECTED");
    b.targets.delete(ctx.sessionId);
    const err = await httpError(b.service.respond("g-1", ANSWER, "local"));
    assert.equal(err.status, 404);
    assert.equal(target.sent.length, 0);
    const meta = b.messageOf("g-1").metadata;
    assert.equal(meta.status, "agent_disconnected");
    assert.deepEqual((meta.undelivered_answer as { answers: unknown }).answers, ANSWER.answers);
    assert.equal(b.task(ctx).pendingAction, null);
  });

  test("a settle the database refuses is held and written with its task's state once the database takes writes again", async (t) => {
    const { ctx } = b.liveSession();
    b.service.onElicitationRequested(ctx, b.requested("l-1"));
    const other = new Database(path.join(b.dir, "kandev.db"));
    b.handle.sqlite.pragma("busy_timeout = 0");
    t.after(() => {
      b.handle.sqlite.pragma("busy_timeout = 1000");
      other.close();
    });
    other.exec("BEGIN EXCLUSIVE");
    assert.equal(b.service.settleExecution(ctx.executionId), 1);
    other.exec("ROLLBACK");
    assert.equal(b.service.get("l-1")!.status, "pending", "refused during the lock, held");
    b.retries.fire();
    assert.equal(b.service.get("l-1")!.status, "agent_disconnected");
    assert.deepEqual([b.task(ctx).state, b.task(ctx).pendingAction], ["IN_PROGRESS", null]);
  });

  test("a colliding pending id is an error, never an overwrite (AC-60)", () => {
    const { ctx } = b.liveSession();
    assert.equal(b.service.onElicitationRequested(ctx, b.requested("e-dup")), true);
    const other = b.liveSession();
    assert.equal(b.service.onElicitationRequested(other.ctx, { ...b.requested("e-dup"), message: "other" }), false);
    assert.equal(b.service.get("e-dup")!.session_id, ctx.sessionId);
    assert.equal(b.service.get("e-dup")!.message, "Pick");
    assert.equal(messagesRepo.listMessages(b.handle.db, other.ctx.sessionId).length, 0, "no message for the refused one");
  });

  test("a replayed elicitation.requested notifies once, also after a restart; one that cannot be stored never (F9)", () => {
    const { ctx } = b.liveSession();
    assert.equal(b.service.onElicitationRequested(ctx, b.requested("e-replay")), true);
    assert.equal(b.service.onElicitationRequested(ctx, b.requested("e-replay")), false, "agentctl's replay after a reconnect");
    const restarted = new ClarificationService({ ...b.options });
    try {
      assert.equal(restarted.onElicitationRequested(ctx, b.requested("e-replay")), false, "the replay reaches a restarted backend");
    } finally {
      restarted.shutdown();
    }
    assert.equal(b.recorder.notifications.filter((n) => n.pending_id === "e-replay").length, 1);
    // A request whose record cannot be stored (its session is gone) notifies nobody.
    b.handle.sqlite.prepare("DELETE FROM sessions WHERE id = ?").run(ctx.sessionId);
    assert.equal(b.service.onElicitationRequested(ctx, b.requested("e-orphan")), false);
    assert.equal(b.recorder.notifications.filter((n) => n.pending_id === "e-orphan").length, 0);
  });

  test("with the flag off an elicitation creates nothing and is declined (AC-20)", async () => {
    const { ctx, target } = b.liveSession();
    b.flag.on = false;
    try {
      assert.equal(b.service.onElicitationRequested(ctx, b.requested("off-1")), false);
    } finally {
      b.flag.on = true;
    }
    assert.equal(b.service.get("off-1"), undefined);
    assert.equal(messagesRepo.listMessages(b.handle.db, ctx.sessionId).length, 0);
    assert.equal(b.task(ctx).pendingAction, null);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(target.sent, [{ pending_id: "off-1", answers: [], rejected: true }]);
  });

  test("restart: every record left pending becomes agent_disconnected; answered ones keep their answer", async () => {
    const { ctx } = b.liveSession();
    b.service.onElicitationRequested(ctx, b.requested("r-open"));
    b.service.onElicitationRequested(ctx, b.requested("r-done"));
    await b.service.respond("r-done", ANSWER, "local");
    const fresh = new ClarificationService({ ...b.options });
    assert.ok(fresh.reconcileLeftovers() >= 1);
    assert.equal(fresh.get("r-open")!.status, "agent_disconnected");
    assert.equal(fresh.get("r-open")!.resolution?.by, "backend_restarted");
    assert.equal(fresh.get("r-done")!.status, "answered");
    assert.deepEqual(fresh.get("r-done")!.resolution?.answers, ANSWER.answers);
    assert.equal(fresh.list({ status: "pending" }).length, 0);
  });

  test("an unknown pending id, or one whose session is gone, is 404", async () => {
    assert.equal((await httpError(b.service.respond("nope", ANSWER, "local"))).status, 404);
    // respond looks up no session: a record cannot outlive its session (foreign key, cascade).
    const { ctx } = b.liveSession();
    b.service.onElicitationRequested(ctx, b.requested("gone-1"));
    b.handle.sqlite.prepare("DELETE FROM sessions WHERE id = ?").run(ctx.sessionId);
    assert.equal(b.service.get("gone-1"), undefined);
    assert.equal((await httpError(b.service.respond("gone-1", ANSWER, "local"))).status, 404);
  });

  test("a question's round trip, as the benchmark runs it, costs 18 SQL statements in two transactions", async () => {
    // The hot path of `npm run bench` (docs/BENCHMARKS.md): ask (record, message and task in one
    // transaction), the operator's answer (forwarded; agentctl's settle event, sent before its
    // success, writes record and task in one transaction). More means a regression.
    const { ctx } = b.liveSession();
    const executed = await captureStatements(b.handle, async () => {
      b.service.onElicitationRequested(ctx, b.requested("n-1"));
      assert.deepEqual(await b.service.respond("n-1", ANSWER, "local"), { success: true, status: "answered" });
    });
    assert.deepEqual(b.service.get("n-1")!.resolution?.answers, ANSWER.answers);
    assert.equal(executed.filter((s) => s.startsWith("BEGIN")).length, 2, executed.join("\n"));
    assert.equal(executed.length, 18, executed.join("\n"));
  });
});
