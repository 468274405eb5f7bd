import assert from "node:assert/strict";
import { test } from "node:test";
import { respondFailure, submitOutcome } from "./outcome";

const err = (httpStatus: number, code: string) => ({ ok: false as const, httpStatus, code, message: `m${httpStatus}` });

test("a delivered answer or skip closes the overlay quietly", () => {
  assert.deepEqual(submitOutcome({ ok: true, status: "answered" }), { kind: "sent" });
  assert.deepEqual(submitOutcome({ ok: true, status: "declined" }), { kind: "sent" });
});

test("a 200 for a question whose agent is gone says the answer was only recorded", () => {
  assert.deepEqual(submitOutcome({ ok: true, status: "agent_disconnected" }), { kind: "closed", notice: "recorded-only" });
});

test("404 and 409 close with 'already answered or withdrawn'", () => {
  assert.deepEqual(submitOutcome(err(404, "NOT_FOUND")), { kind: "closed", notice: "already-settled" });
  assert.deepEqual(submitOutcome(err(409, "CONFLICT")), { kind: "closed", notice: "already-settled" });
});

test("503 keeps the overlay: the answer did not reach the agent and can be sent again", () => {
  assert.deepEqual(submitOutcome(err(503, "agent_stream_not_connected")), {
    kind: "retry",
    reason: "not-delivered",
    message: "m503",
  });
});

test("timeouts, invalid answers, network and other failures all allow a retry", () => {
  assert.equal(submitOutcome(err(504, "TIMEOUT")).kind, "retry");
  assert.deepEqual(submitOutcome(err(400, "VALIDATION_ERROR")), { kind: "retry", reason: "invalid", message: "m400" });
  assert.deepEqual(submitOutcome(err(0, "NETWORK")), { kind: "retry", reason: "network", message: "m0" });
  assert.deepEqual(submitOutcome(err(502, "AGENTCTL_ERROR")), { kind: "retry", reason: "failed", message: "m502" });
});

test("respondFailure keeps an API error's status and code; anything else is the network", () => {
  assert.deepEqual(respondFailure({ status: 503, code: "agent_stream_not_connected", message: "down" }), {
    ok: false,
    httpStatus: 503,
    code: "agent_stream_not_connected",
    message: "down",
  });
  assert.deepEqual(respondFailure(new TypeError("Failed to fetch")), {
    ok: false,
    httpStatus: 0,
    code: "NETWORK",
    message: "Failed to fetch",
  });
  assert.equal(submitOutcome(respondFailure("weird")).kind, "retry");
});
