import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fieldProblemWords, taskFormProblems } from "./field-errors";
import { serverErrorWords } from "./server-errors";

describe("fieldProblemWords", () => {
  test("a blank title or prompt (the API's too_small / custom) is a sentence of its own, never zod's words", () => {
    assert.deepEqual(fieldProblemWords("title", { path: "title", code: "too_small", message: "Too small: expected string to have >=1 characters" }), {
      key: "validation.titleBlank",
    });
    assert.deepEqual(fieldProblemWords("prompt", { path: "prompt", code: "custom", message: "must not be blank" }), {
      key: "validation.promptBlank",
    });
  });
  test("too long names the limit; a refused id names what is wrong", () => {
    assert.deepEqual(fieldProblemWords("title", { path: "title", code: "too_big", message: "x" }), {
      key: "validation.tooLong",
      values: { max: 500 },
    });
    assert.deepEqual(fieldProblemWords("agent_profile_id", { path: "agent_profile_id", message: "no agent profile x" }), {
      key: "validation.profileUnknown",
    });
    assert.deepEqual(fieldProblemWords("other", { path: "other", code: "weird", message: "x" }), { key: "validation.invalidValue" });
  });
  test("the form itself refuses blank and whitespace-only title and prompt", () => {
    assert.deepEqual(
      taskFormProblems({ title: " ", prompt: "\n\t" }).map((p) => [p.field, p.words.key]),
      [
        ["title", "validation.titleBlank"],
        ["prompt", "validation.promptBlank"],
      ],
    );
    assert.deepEqual(taskFormProblems({ title: "a", prompt: "b" }), []);
  });
});

describe("serverErrorWords", () => {
  test("refusal reasons and known codes get sentences of their own", () => {
    assert.deepEqual(serverErrorWords({ status: 409, code: "CONFLICT", message: "x", details: { reason: "turn_running" } }), {
      key: "errors.reasons.turnRunning",
      values: { count: 0 },
    });
    assert.deepEqual(serverErrorWords({ status: 409, code: "CONFLICT", message: "x", details: { reason: "in_use", task_ids: ["a", "b"] } }), {
      key: "errors.reasons.inUse",
      values: { count: 2 },
    });
    assert.deepEqual(serverErrorWords({ status: 0, code: "NETWORK", message: "fetch failed" }), { key: "errors.network" });
    assert.deepEqual(serverErrorWords({ status: 409, code: "CONFLICT", message: "a turn is already running" }), {
      key: "errors.reasons.turnRunning",
    });
  });
  test("anything else keeps the board's message in a translated frame", () => {
    assert.deepEqual(serverErrorWords({ status: 500, code: "GIT_ERROR", message: "git said no" }), {
      key: "errors.server",
      values: { message: "git said no" },
    });
    assert.deepEqual(serverErrorWords(new Error("boom")), { key: "errors.server", values: { message: "boom" } });
  });
});
