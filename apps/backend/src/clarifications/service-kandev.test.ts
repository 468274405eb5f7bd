// The board's own MCP ask tool (ask_user_question_kandev) in the clarification store, over a real
// SQLite file: validated by the tool's rules, deduplicated, adjudicated by the record.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ProtocolError, type KandevAskResult } from "@kandev/protocol";
import { clarificationBoard, httpError, KANDEV_ANSWER, KANDEV_INPUT } from "../../test/clarification-service-fixture.js";
import { ClarificationService } from "./service.js";

describe("ask-tool questions in the clarification store", () => {
  let b: ReturnType<typeof clarificationBoard>;
  before(() => (b = clarificationBoard()));
  after(() => b.close());

  test("input outside the tool's rules is a VALIDATION_ERROR and creates nothing (F3)", () => {
    const { ctx } = b.liveSession();
    assert.throws(
      () => b.service.askKandev(ctx, { session_id: null, questions: [{ prompt: "p", options: [{ label: "one" }] }] }),
      (err: unknown) => err instanceof ProtocolError && err.code === "VALIDATION_ERROR" && /2-6 options/.test(err.message),
    );
    assert.equal(b.service.list({ sessionId: ctx.sessionId }).length, 0);
  });

  test("a repeat with the same questions joins the same waiter; the record takes the first answer and who gave it, a later one is 409 with the winner (D4)", async () => {
    const { ctx } = b.liveSession();
    const first = b.service.askKandev(ctx, { session_id: null, questions: KANDEV_INPUT.questions });
    const again = b.service.askKandev(ctx, { session_id: null, questions: [{ ...KANDEV_INPUT.questions[0]!, prompt: "which  DATABASE?" }] });
    const records = b.service.list({ sessionId: ctx.sessionId });
    assert.equal(records.length, 1);
    assert.equal(b.recorder.notifications.filter((n) => n.pending_id === records[0]!.pending_id).length, 1);
    const id = records[0]!.pending_id;
    assert.equal(b.task(ctx).state, "WAITING_FOR_INPUT");
    const bad = await httpError(b.service.respond(id, { answers: [] }, "local"));
    assert.deepEqual([bad.status, bad.code], [400, "VALIDATION_ERROR"]);
    assert.match(bad.message, /missing: db/);
    assert.deepEqual(await b.service.respond(id, KANDEV_ANSWER, "local"), { success: true, status: "answered" });
    assert.equal(b.service.get(id)!.resolution?.user, "local");
    const [x, y] = (await Promise.all([first, again])) as [KandevAskResult, KandevAskResult];
    assert.deepEqual(x, y);
    assert.match(x.text, /Which database\?\n {2}Answer: Postgres/);
    assert.deepEqual(x.answer, KANDEV_ANSWER);
    const late = await httpError(b.service.respond(id, { answers: [{ question_id: "db", selected_options: ["lite"] }] }, "local"));
    assert.deepEqual([late.status, late.code], [409, "CONFLICT"]);
    assert.deepEqual(late.details, { status: "answered", resolution: b.service.get(id)!.resolution });
    assert.deepEqual((late.details as { resolution: { answers: unknown } }).resolution.answers, KANDEV_ANSWER.answers);
    // A settled record asks nothing: a new identical call is a new record.
    const third = b.service.askKandev(ctx, { session_id: null, questions: KANDEV_INPUT.questions });
    assert.equal(b.service.list({ sessionId: ctx.sessionId }).length, 2);
    b.service.onTurnEnded(ctx.sessionId, ctx.turnId!, "cancelled");
    await assert.rejects(third, /withdrawn \(turn_cancelled\)/);
  });

  test("no answer in time: timed_out, and the agent reads that the operator did not answer in time", async () => {
    const { ctx } = b.liveSession();
    const quick = new ClarificationService({ ...b.options, kandevWaitMs: 30 });
    const keepAlive = setTimeout(() => undefined, 5_000);
    const result = await quick.askKandev(ctx, { session_id: null, questions: KANDEV_INPUT.questions });
    clearTimeout(keepAlive);
    assert.match(result.text, /did not answer in time/);
    const [rec] = b.service.list({ sessionId: ctx.sessionId });
    assert.equal(rec!.status, "timed_out");
    assert.equal(rec!.resolution?.by, "deadline");
    assert.equal(b.task(ctx).pendingAction, null);
  });

  test("an ended turn settles kandev questions only; elicitations stay with agentctl", async () => {
    const { ctx } = b.liveSession();
    b.service.onElicitationRequested(ctx, b.requested("k-e"));
    const ended = b.service.askKandev(ctx, { session_id: null, questions: KANDEV_INPUT.questions });
    assert.equal(b.service.onTurnEnded(ctx.sessionId, ctx.turnId!, "end_turn"), 1);
    await assert.rejects(ended);
    assert.equal(b.service.get("k-e")!.status, "pending");
    const statuses = b.service.list({ sessionId: ctx.sessionId }).map((c) => [c.source, c.status, c.resolution?.by ?? null]);
    assert.deepEqual(statuses, [
      ["elicitation", "pending", null],
      ["kandev_tool", "cancelled", "turn_ended"],
    ]);
  });
});
