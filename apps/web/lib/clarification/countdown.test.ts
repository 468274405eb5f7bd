import assert from "node:assert/strict";
import { test } from "node:test";
import { deadlineUrgency, formatCountdown } from "./countdown";

test("formatCountdown shows minutes and seconds, hours once there are any, never negative", () => {
  assert.equal(formatCountdown(0), "0:00");
  assert.equal(formatCountdown(65), "1:05");
  assert.equal(formatCountdown(3_300), "55:00");
  assert.equal(formatCountdown(3_661), "1:01:01");
  assert.equal(formatCountdown(-5), "0:00");
  assert.equal(formatCountdown(9.9), "0:09");
});

test("deadlineUrgency grows as the deadline nears", () => {
  assert.equal(deadlineUrgency(3_000), "calm");
  assert.equal(deadlineUrgency(299), "soon");
  assert.equal(deadlineUrgency(59), "urgent");
});
