import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ElicitationOutcomeSchema, ErrorCodeSchema } from "@kandev/protocol";
import { TERMINAL_STATUSES, canSettle, statusForOperatorAnswer, statusForSettledEvent, verdictForRespondError } from "./outcomes.js";

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
});
