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
  resolutionForSettledEvent,
  verdictForRespondError,
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
  test("agentctl's refusals of an answer map to the documented HTTP answers (D5, AC-20a)", () => {
    assert.deepEqual(verdictForRespondError("NOT_FOUND"), { status: 404, code: "NOT_FOUND" });
    assert.deepEqual(verdictForRespondError("VALIDATION_ERROR"), { status: 400, code: "VALIDATION_ERROR" });
    assert.deepEqual(verdictForRespondError("NOT_CONNECTED"), { status: 503, code: "agent_stream_not_connected" });
    for (const c of ErrorCodeSchema.options) assert.ok(verdictForRespondError(c).status >= 400, c);
  });

  test("agentctl's agent-gone reasons read agent_disconnected; a decided cancel stays cancelled (F7)", () => {
    for (const r of ["agent_exited", "agent_disconnected", "shutdown"]) assert.equal(statusForSettledEvent("cancelled", r), "agent_disconnected", r);
    for (const r of ["agent_cancelled", "turn_cancelled", "idle_timeout"]) assert.equal(statusForSettledEvent("cancelled", r), "cancelled", r);
    assert.equal(statusForSettledEvent("timed_out", "deadline"), "timed_out");
    assert.equal(statusForSettledEvent("declined", "undeliverable"), "declined");
  });
  test("an operator's resolution names who answered, what was chosen and why a Skip was given", () => {
    const answer = { answers: [{ question_id: "q", selected_options: ["a"] }] };
    assert.deepEqual(operatorResolution(answer, "t", "local"), { by: "operator", at: "t", answers: answer.answers, user: "local" });
    assert.deepEqual(operatorResolution({ answers: [], rejected: true, reject_reason: " later " }, "t"), {
      by: "operator_rejected",
      at: "t",
      answers: [],
      reject_reason: "later",
    });
    assert.equal(operatorResolution({ answers: [], reject_reason: "ignored without a Skip" }, "t").reject_reason, undefined);
  });
  test("agentctl's settle event is the whole record of its outcome: the operator's answer and user when it carries them", () => {
    const answers = [{ question_id: "q", selected_options: ["a"] }];
    assert.deepEqual(resolutionForSettledEvent({ pending_id: "p", outcome: "answered", reason: "operator", answers, user: "ada" }, "t"), {
      by: "operator",
      at: "t",
      answers,
      user: "ada",
    });
    assert.deepEqual(
      resolutionForSettledEvent({ pending_id: "p", outcome: "declined", reason: "operator_rejected", answers: [], reject_reason: "no" }, "t"),
      {
        by: "operator_rejected",
        at: "t",
        answers: [],
        reject_reason: "no",
      },
    );
    assert.deepEqual(resolutionForSettledEvent({ pending_id: "p", outcome: "timed_out", reason: "deadline" }, "t"), { by: "deadline", at: "t" });
  });
  test("kandev questions left at turn end: cancelled by a cancel, agent_disconnected by an error", () => {
    assert.deepEqual(kandevTurnEndSettle("cancelled"), { status: "cancelled", by: "turn_cancelled" });
    assert.deepEqual(kandevTurnEndSettle("error"), { status: "agent_disconnected", by: "turn_error" });
    assert.deepEqual(kandevTurnEndSettle("end_turn"), { status: "cancelled", by: "turn_ended" });
  });
});
