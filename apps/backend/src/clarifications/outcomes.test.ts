import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ElicitationOutcomeSchema, ErrorCodeSchema } from "@kandev/protocol";
import {
  TERMINAL_STATUSES,
  canSettle,
  kandevTurnEndSettle,
  operatorResolution,
  statusForOperatorAnswer,
  statusForSettledEvent,
  verdictForRespondError,
  withOperatorAnswers,
} from "./outcomes.js";

describe("clarification outcomes", () => {
  test("only pending settles; every terminal status is final", () => {
    assert.equal(canSettle("pending"), true);
    for (const s of TERMINAL_STATUSES) assert.equal(canSettle(s), false, s);
  });
  test("an operator answer settles answered, a reject declined", () => {
    assert.equal(statusForOperatorAnswer({ answers: [] }), "answered");
    assert.equal(statusForOperatorAnswer({ answers: [], rejected: true }), "declined");
  });
  test("every agentctl settle outcome maps to a terminal status (F7)", () => {
    for (const o of ElicitationOutcomeSchema.options) {
      assert.ok(TERMINAL_STATUSES.includes(statusForSettledEvent(o)), o);
    }
  });
  test("agentctl's verdicts map to the documented HTTP answers (D5, AC-20a)", () => {
    assert.deepEqual(verdictForRespondError("NOT_FOUND"), { status: 404, code: "NOT_FOUND", settle: true });
    assert.deepEqual(verdictForRespondError("VALIDATION_ERROR"), { status: 400, code: "VALIDATION_ERROR", settle: false });
    assert.deepEqual(verdictForRespondError("NOT_CONNECTED"), { status: 503, code: "agent_stream_not_connected", settle: false });
    for (const c of ErrorCodeSchema.options) assert.ok(verdictForRespondError(c).status >= 400, c);
  });

  test("F7 agentctl's agent-gone reasons read agent_disconnected; a decided cancel stays cancelled", () => {
    for (const r of ["agent_exited", "agent_disconnected", "shutdown"]) assert.equal(statusForSettledEvent("cancelled", r), "agent_disconnected", r);
    for (const r of ["agent_cancelled", "turn_cancelled", "idle_timeout"]) assert.equal(statusForSettledEvent("cancelled", r), "cancelled", r);
    assert.equal(statusForSettledEvent("timed_out", "deadline"), "timed_out");
    assert.equal(statusForSettledEvent("declined", "undeliverable"), "declined");
  });
  test("an operator's resolution names who and what was chosen; an event's settle gains the answers once", () => {
    const answer = { answers: [{ question_id: "q", selected_options: ["a"] }] };
    assert.deepEqual(operatorResolution(answer, "t"), { by: "operator", at: "t", answers: answer.answers });
    assert.equal(operatorResolution({ answers: [], rejected: true }, "t").by, "operator_rejected");
    assert.deepEqual(withOperatorAnswers({ by: "operator", at: "t" }, answer), { by: "operator", at: "t", answers: answer.answers });
    assert.equal(withOperatorAnswers({ by: "operator", at: "t", answers: [] }, answer), null, "answers already there");
    assert.equal(withOperatorAnswers({ by: "deadline", at: "t" }, answer), null, "settled some other way");
    assert.equal(withOperatorAnswers({ by: "operator", at: "t" }, { answers: [], rejected: true }), null, "a reject is not an answer");
    assert.equal(withOperatorAnswers(null, answer), null);
  });
  test("kandev questions left at turn end: cancelled by a cancel, agent_disconnected by an error", () => {
    assert.deepEqual(kandevTurnEndSettle("cancelled"), { status: "cancelled", by: "turn_cancelled" });
    assert.deepEqual(kandevTurnEndSettle("error"), { status: "agent_disconnected", by: "turn_error" });
    assert.deepEqual(kandevTurnEndSettle("end_turn"), { status: "cancelled", by: "turn_ended" });
  });
});
