import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { parsePrompt, promptText, splitChunks } from "./prompt-parse.js";

describe("parsePrompt", () => {
  test("picks the scenario name and the rest", () => {
    assert.deepEqual(parsePrompt("/e2e:echo hello  world"), { scenario: "echo", rest: "hello  world", text: "/e2e:echo hello  world" });
  });
  test("a name alone has an empty rest", () => {
    assert.equal(parsePrompt("/e2e:slow").rest, "");
    assert.equal(parsePrompt("/e2e:slow").scenario, "slow");
  });
  test("multi-line rest is kept", () => {
    assert.equal(parsePrompt("/e2e:echo a\nb").rest, "a\nb");
  });
  test("no prefix selects the default", () => {
    assert.equal(parsePrompt("hello /e2e:echo").scenario, null);
    assert.equal(parsePrompt("/e2e: echo").scenario, null);
  });
});

describe("splitChunks", () => {
  test("joins back to the text", () => {
    for (const [text, n] of [
      ["hello world", 4],
      ["ab", 5],
      ["x", 1],
      ["abcdefghij", 3],
    ] as const) {
      const parts = splitChunks(text, n);
      assert.equal(parts.join(""), text);
      assert.ok(parts.length <= n && parts.every((p) => p.length > 0));
    }
  });
  test("empty text gives no chunks", () => {
    assert.deepEqual(splitChunks("", 3), []);
  });
});

test("promptText joins text blocks only", () => {
  assert.equal(
    promptText([
      { type: "text", text: "a" },
      { type: "image", data: "", mimeType: "image/png" },
      { type: "text", text: "b" },
    ]),
    "a\nb",
  );
});
