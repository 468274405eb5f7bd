import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { SessionStateSchema } from "@kandev/protocol";
import { BACKEND_RESTARTED, isResumable } from "./session-manager.js";

describe("isResumable", () => {
  test("only sessions the previous run left behind: finished (WAITING_FOR_INPUT) or interrupted (CANCELLED)", () => {
    const resumable = SessionStateSchema.options.filter((state) => isResumable({ state, error: BACKEND_RESTARTED }));
    assert.deepEqual(resumable.sort(), ["CANCELLED", "WAITING_FOR_INPUT"]);
  });

  test("a failure or an operator's cancel is final; so is a session without the restart mark", () => {
    assert.equal(isResumable({ state: "CANCELLED", error: "Cancelled before the agent session started" }), false);
    assert.equal(isResumable({ state: "FAILED", error: BACKEND_RESTARTED }), false);
    assert.equal(isResumable({ state: "WAITING_FOR_INPUT", error: null }), false);
  });
});
