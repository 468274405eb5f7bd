import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MessageTypeSchema, SessionStateSchema, TaskStateSchema, type PendingAction, type TaskState } from "@kandev/protocol";
import { agentStatusOf, deriveTaskState, isLiveSessionState, isTurnActive, pendingActionOf } from "./task-state.js";

describe("pendingActionOf (DECISIONS A4)", () => {
  test("nothing open -> null", () => assert.equal(pendingActionOf([]), null));
  test("a permission alone -> permission", () => assert.equal(pendingActionOf(["permission_request"]), "permission"));
  test("a clarification wins over a permission, whatever the order", () => {
    assert.equal(pendingActionOf(["permission_request", "clarification_request"]), "clarification");
    assert.equal(pendingActionOf(["clarification_request", "permission_request"]), "clarification");
  });
  test("other message types never produce a pending action", () => {
    const others = MessageTypeSchema.options.filter((t) => t !== "permission_request" && t !== "clarification_request");
    assert.equal(pendingActionOf(others), null);
  });
});

describe("deriveTaskState", () => {
  const cases: Array<[Parameters<typeof deriveTaskState>[0], PendingAction, TaskState]> = [
    [null, null, "TODO"],
    ["CREATED", null, "TODO"],
    ["STARTING", null, "IN_PROGRESS"],
    ["RUNNING", null, "IN_PROGRESS"],
    ["STARTING", "permission", "WAITING_FOR_INPUT"],
    ["RUNNING", "permission", "WAITING_FOR_INPUT"],
    ["RUNNING", "clarification", "WAITING_FOR_INPUT"],
    ["WAITING_FOR_INPUT", null, "REVIEW"],
    ["WAITING_FOR_INPUT", "clarification", "WAITING_FOR_INPUT"],
    ["WAITING_FOR_INPUT", "permission", "WAITING_FOR_INPUT"],
    ["COMPLETED", null, "COMPLETED"],
    ["FAILED", null, "FAILED"],
    ["FAILED", "clarification", "FAILED"],
    ["CANCELLED", null, "CANCELLED"],
  ];
  for (const [session, pending, expected] of cases) {
    test(`${session} + ${pending} -> ${expected}`, () => assert.equal(deriveTaskState(session, pending), expected));
  }
  test("every session state x pending action yields a valid task state", () => {
    for (const s of SessionStateSchema.options)
      for (const p of [null, "permission", "clarification"] as const) TaskStateSchema.parse(deriveTaskState(s, p));
  });
});

describe("session liveness", () => {
  test("live states are those with an agentctl", () => {
    const live = SessionStateSchema.options.filter(isLiveSessionState);
    assert.deepEqual(live, ["CREATED", "STARTING", "RUNNING", "WAITING_FOR_INPUT"]);
  });
  test("a turn is active while starting or running", () => {
    assert.deepEqual(SessionStateSchema.options.filter(isTurnActive), ["STARTING", "RUNNING"]);
    assert.equal(isTurnActive(null), false);
  });
});

describe("agentStatusOf", () => {
  test("running while starting or in a turn, idle while waiting for a prompt, closed once the agent went away or the session ended", () => {
    assert.deepEqual(
      SessionStateSchema.options.map((s) => [s, agentStatusOf(s, null)]),
      [
        ["CREATED", "running"],
        ["STARTING", "running"],
        ["RUNNING", "running"],
        ["WAITING_FOR_INPUT", "idle"],
        ["COMPLETED", "closed"],
        ["FAILED", "closed"],
        ["CANCELLED", "closed"],
      ],
    );
  });
  test("a session waiting for input whose agent was closed or lost (an interruption mark) is closed", () => {
    assert.equal(agentStatusOf("WAITING_FOR_INPUT", "closed while idle"), "closed");
    assert.equal(agentStatusOf("WAITING_FOR_INPUT", "backend restarted"), "closed");
  });
});
