import { test } from "node:test";
import assert from "node:assert/strict";
import { passwordProblem } from "./password-rule";

test("a password needs at least 10 characters", () => {
  assert.deepEqual(passwordProblem("short"), { min: 10 });
  assert.deepEqual(passwordProblem("123456789"), { min: 10 });
  assert.equal(passwordProblem("1234567890"), null);
});
