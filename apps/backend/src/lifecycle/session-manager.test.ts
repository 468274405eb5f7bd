import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { SessionStateSchema } from "@kandev/protocol";
import { AGENTCTL_STOPPED, BACKEND_RESTARTED, IDLE_CLOSED, isResumable, OPERATOR_CLOSED } from "./interruption.js";

describe("isResumable", () => {
  test("only sessions whose agent went away under them (restart, agentctl death, closed while idle or by the operator): finished or interrupted", () => {
    for (const why of [BACKEND_RESTARTED, AGENTCTL_STOPPED, IDLE_CLOSED, OPERATOR_CLOSED]) {
      const resumable = SessionStateSchema.options.filter((state) => isResumable({ state, error: why.error }));
      assert.deepEqual(resumable.sort(), ["CANCELLED", "WAITING_FOR_INPUT"], why.error);
    }
  });

  test("a failure or an operator's cancel is final; so is a session without an interruption mark", () => {
    assert.equal(isResumable({ state: "CANCELLED", error: "Cancelled before the agent session started" }), false);
    assert.equal(isResumable({ state: "FAILED", error: BACKEND_RESTARTED.error }), false);
    assert.equal(isResumable({ state: "FAILED", error: AGENTCTL_STOPPED.error }), false);
    assert.equal(isResumable({ state: "WAITING_FOR_INPUT", error: null }), false);
  });
});
