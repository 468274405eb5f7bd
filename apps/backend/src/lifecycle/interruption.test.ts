import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SessionStateSchema } from "@kandev/protocol";
import {
  AGENTCTL_STOPPED,
  BACKEND_RESTARTED,
  IDLE_CLOSED,
  OPERATOR_CLOSED,
  REOPENED_ERROR,
  interruptionOf,
  isEnded,
  isResumable,
} from "./interruption.js";

const MARKED = [BACKEND_RESTARTED.error, AGENTCTL_STOPPED.error, IDLE_CLOSED.error, OPERATOR_CLOSED.error, REOPENED_ERROR];

describe("isEnded", () => {
  test("a session without an interruption ends when it leaves the live states", () => {
    assert.deepEqual(
      SessionStateSchema.options.filter((state) => isEnded({ state, error: null })),
      ["COMPLETED", "FAILED", "CANCELLED"],
    );
  });

  test("an interrupted session that waits or was cancelled still takes prompts (it resumes)", () => {
    for (const error of MARKED) {
      assert.equal(isEnded({ state: "WAITING_FOR_INPUT", error }), false, error);
      assert.equal(isEnded({ state: "CANCELLED", error }), false, error);
      assert.equal(isResumable({ state: "CANCELLED", error }), true, error);
    }
  });

  test("a failed or completed session ends whatever its error says", () => {
    for (const error of [...MARKED, "could not start the agent: boom"]) {
      assert.equal(isEnded({ state: "FAILED", error }), true, error);
      assert.equal(isEnded({ state: "COMPLETED", error }), true, error);
    }
  });

  test("a session the operator cancelled (its own error) ends", () => {
    assert.equal(isEnded({ state: "CANCELLED", error: "cancelled by the operator while starting" }), true);
  });
});

describe("interruptionOf", () => {
  test("each interruption mark has its code; other errors have none", () => {
    assert.deepEqual(MARKED.map(interruptionOf), ["backend_restarted", "agentctl_stopped", "idle_timeout", "session_closed", "reopened"]);
    assert.equal(interruptionOf(null), null);
    assert.equal(interruptionOf("the agent exited while starting (code 1)"), null);
  });
});
