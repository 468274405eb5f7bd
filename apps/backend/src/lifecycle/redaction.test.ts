import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { boardSecrets, makeRedactor, noRedaction, redactDeep, secretsFor } from "./redaction.js";

describe("redaction of text", () => {
  test("every occurrence of a secret is replaced, the longer secret first", () => {
    const redact = makeRedactor(["sk-ant-123456", "sk-ant-123456-extra", "abc"]);
    assert.equal(redact("key sk-ant-123456-extra and sk-ant-123456 twice sk-ant-123456"), "key [redacted] and [redacted] twice [redacted]");
    assert.equal(
      redact("abc stays: too short to be a secret worth shredding lines for"),
      "abc stays: too short to be a secret worth shredding lines for",
    );
  });

  test("no secrets -> text unchanged", () => {
    assert.equal(makeRedactor([])("x"), "x");
    assert.equal(makeRedactor(["short"]), noRedaction, "only values too short to redact: no redaction at all");
  });
});

describe("redaction of nested metadata", () => {
  const redact = makeRedactor(["sk-live-secret-42"]);

  test("every string at any depth of objects and arrays is redacted; keys, numbers, booleans and null stay", () => {
    const metadata = {
      reason: "the agent exited (code 1): bad key sk-live-secret-42",
      failure: { code: "exited_during_start", params: { last: "bad key sk-live-secret-42", exit_code: "1" } },
      stderr_tail: "line 1\nAuthorization: Bearer sk-live-secret-42\n",
      lines: ["ok", "sk-live-secret-42sk-live-secret-42"],
      count: 3,
      done: true,
      nothing: null,
    };
    assert.deepEqual(redactDeep(metadata, redact), {
      reason: "the agent exited (code 1): bad key [redacted]",
      failure: { code: "exited_during_start", params: { last: "bad key [redacted]", exit_code: "1" } },
      stderr_tail: "line 1\nAuthorization: Bearer [redacted]\n",
      lines: ["ok", "[redacted][redacted]"],
      count: 3,
      done: true,
      nothing: null,
    });
    assert.equal(metadata.stderr_tail.includes("sk-live-secret-42"), true, "the input is not changed");
  });

  test("a plain string is redacted like text; no secrets -> the very same value", () => {
    assert.equal(redactDeep("x sk-live-secret-42", redact), "x [redacted]");
    const value = { a: ["b"] };
    assert.equal(redactDeep(value, noRedaction), value);
  });
});

describe("which values are secret", () => {
  test("a session's secrets: every value of its profile's env, then the board's own", () => {
    assert.deepEqual(secretsFor({ ANTHROPIC_API_KEY: "sk-1", MODEL: "opus-4" }, ["hunter2"]), ["sk-1", "opus-4", "hunter2"]);
    assert.deepEqual(secretsFor(null, []), []);
  });

  test("the board's own: values whose names or formats look like credentials (the rule agents' environments use)", () => {
    const board = { PATH: "/usr/bin", GITHUB_TOKEN: "ghp_x", MY_PASSWORD: "hunter2", HOME: "/root", PROXY: "http://me:pw1234@proxy:1" };
    assert.deepEqual(boardSecrets(board).sort(), ["ghp_x", "http://me:pw1234@proxy:1", "hunter2"]);
  });
});
