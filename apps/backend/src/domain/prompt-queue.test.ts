import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { SessionState } from "@kandev/protocol";
import { nextQueuedPrompt, routePrompt, routeSendNow } from "./prompt-queue.js";

const STATES: SessionState[] = ["CREATED", "STARTING", "RUNNING", "WAITING_FOR_INPUT", "COMPLETED", "FAILED", "CANCELLED"];

describe("routePrompt: where a prompt goes", () => {
  test("a live session waiting for input starts a turn; a live one starting or mid-turn queues it", () => {
    const routes = Object.fromEntries(STATES.map((state) => [state, routePrompt({ state, live: true, resumable: false })]));
    assert.deepEqual(routes, {
      CREATED: "queue",
      STARTING: "queue",
      RUNNING: "queue",
      WAITING_FOR_INPUT: "send",
      COMPLETED: "refuse",
      FAILED: "refuse",
      CANCELLED: "refuse",
    });
  });

  test("a session whose agent is gone resumes when it is resumable, else it is refused", () => {
    for (const state of STATES) {
      assert.equal(routePrompt({ state, live: false, resumable: true }), "resume", state);
      assert.equal(routePrompt({ state, live: false, resumable: false }), "refuse", state);
    }
  });
});

describe("routeSendNow: what 'send now' does", () => {
  test("mid-turn it cancels the turn; while the agent starts it only goes first (the start is not cancelled)", () => {
    assert.equal(routeSendNow({ state: "RUNNING", live: true, resumable: false, agentUp: true }), "cancel_turn");
    assert.equal(routeSendNow({ state: "RUNNING", live: true, resumable: false, agentUp: false }), "mark");
    assert.equal(routeSendNow({ state: "STARTING", live: true, resumable: false, agentUp: false }), "mark");
    assert.equal(routeSendNow({ state: "CREATED", live: true, resumable: false, agentUp: false }), "mark");
  });

  test("with no turn running it is sent at once (resuming a resumable session); an ended session refuses", () => {
    assert.equal(routeSendNow({ state: "WAITING_FOR_INPUT", live: true, resumable: false, agentUp: true }), "send");
    assert.equal(routeSendNow({ state: "CANCELLED", live: false, resumable: true, agentUp: false }), "resume");
    assert.equal(routeSendNow({ state: "FAILED", live: false, resumable: false, agentUp: false }), "refuse");
  });
});

describe("nextQueuedPrompt: what a turn's end sends", () => {
  const a = { id: "a", sendNow: false };
  const b = { id: "b", sendNow: false };
  const now = { id: "now", sendNow: true };

  test("an empty queue sends nothing", () => {
    assert.equal(nextQueuedPrompt([], { stopReason: "end_turn", failed: false }), undefined);
  });

  test("a finished turn sends the oldest, whatever its stop reason", () => {
    for (const stopReason of ["end_turn", "max_tokens", "max_turn_requests", "refusal", "something_new"]) {
      assert.equal(nextQueuedPrompt([a, b], { stopReason, failed: false }), a, stopReason);
    }
  });

  test("a turn the operator cancelled, or one that failed, holds the queue", () => {
    assert.equal(nextQueuedPrompt([a, b], { stopReason: "cancelled", failed: false }), undefined);
    assert.equal(nextQueuedPrompt([a, b], { stopReason: "end_turn", failed: true }), undefined);
    assert.equal(nextQueuedPrompt([a, b], { stopReason: "error", failed: true }), undefined);
  });

  test("a prompt marked 'send now' goes after any turn end, the cancel it caused included", () => {
    for (const end of [
      { stopReason: "cancelled", failed: false },
      { stopReason: "end_turn", failed: false },
      { stopReason: "error", failed: true },
    ]) {
      assert.equal(nextQueuedPrompt([now, a], end), now);
    }
  });
});
