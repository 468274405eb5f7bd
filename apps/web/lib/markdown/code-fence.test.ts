import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { fenceLanguage, isClosedFence } from "./code-fence";

describe("isClosedFence", () => {
  test("a fence with its closing line is closed", () => {
    assert.equal(isClosedFence("```ts\nconst a = 1;\n```"), true);
    assert.equal(isClosedFence("~~~\nx\n~~~~\n"), true);
    assert.equal(isClosedFence("```\n```"), true);
  });

  test("a fence still streaming is open", () => {
    assert.equal(isClosedFence("```ts\nconst a = 1;"), false);
    assert.equal(isClosedFence("```ts\nconst a = 1;\n"), false);
    assert.equal(isClosedFence("```ts"), false);
    assert.equal(isClosedFence("```ts\nconst s = '``"), false);
  });

  test("a closing fence inside a list item or a block quote counts", () => {
    assert.equal(isClosedFence("```sh\n   ls\n   ```"), true);
    assert.equal(isClosedFence("```sh\n> ls\n> ```"), true);
  });
});

describe("fenceLanguage", () => {
  test("reads the language of a fenced block's class list", () => {
    assert.equal(fenceLanguage(["language-typescript"]), "typescript");
    assert.equal(fenceLanguage("language-sh"), "sh");
  });

  test("no language, an empty one or no class at all is null", () => {
    assert.equal(fenceLanguage(undefined), null);
    assert.equal(fenceLanguage([]), null);
    assert.equal(fenceLanguage(["language-"]), null);
    assert.equal(fenceLanguage(["other"]), null);
  });
});
