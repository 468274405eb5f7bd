import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { splitBlocks } from "./blocks";

describe("splitBlocks: where a streamed reply may be cut into independently rendered pieces", () => {
  test("paragraphs, headings, tables and closed fences separated by blank lines are pieces", () => {
    const text = "# Plan\n\nFirst para\nstill first.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst a = 1;\n```\n\nDone.";
    assert.deepEqual(splitBlocks(text), [
      "# Plan\n",
      "First para\nstill first.\n",
      "| a | b |\n|---|---|\n| 1 | 2 |\n",
      "```ts\nconst a = 1;\n```\n",
      "Done.",
    ]);
  });

  test("the pieces hold the whole text but the blank lines between them", () => {
    const text = "a\n\n\nb\n\nc\n";
    assert.deepEqual(splitBlocks(text), ["a\n", "b\n", "c\n"]);
  });

  test("a blank line inside a fence, open or closed, never cuts", () => {
    assert.deepEqual(splitBlocks("```\nx\n\ny\n```\n\nz"), ["```\nx\n\ny\n```\n", "z"]);
    assert.deepEqual(splitBlocks("intro\n\n```py\nx\n\ny"), ["intro\n", "```py\nx\n\ny"]);
    assert.deepEqual(splitBlocks("````\n```\n\nstill code\n````\n\nz"), ["````\n```\n\nstill code\n````\n", "z"]);
    assert.deepEqual(splitBlocks("~~~\n```\n\nstill code\n~~~\n\nz"), ["~~~\n```\n\nstill code\n~~~\n", "z"]);
  });

  test("a fence in a list item keeps its blank lines too", () => {
    const text = "1. run:\n   ```sh\n   ls\n\nnot code yet\n   ```\n\nafter";
    assert.equal(splitBlocks(text).length, 2);
    assert.equal(splitBlocks(text)[1], "after");
  });

  test("a list item or an indented line after a blank line stays with the list", () => {
    assert.deepEqual(splitBlocks("- a\n\n- b\n\n  more of b\n\n1. c\n2) d\n\nend"), ["- a\n\n- b\n\n  more of b\n\n1. c\n2) d\n", "end"]);
    assert.deepEqual(splitBlocks("    code\n\n    more code"), ["    code\n\n    more code"]);
  });

  test("a reference or footnote definition keeps the whole text in one piece", () => {
    assert.deepEqual(splitBlocks("see [docs]\n\n[docs]: https://example.com"), ["see [docs]\n\n[docs]: https://example.com"]);
    assert.deepEqual(splitBlocks("a[^1]\n\n[^1]: note"), ["a[^1]\n\n[^1]: note"]);
  });

  test("a multi-line HTML comment or <pre> stays in one piece", () => {
    assert.deepEqual(splitBlocks("<!--\n\nx\n-->\n\ny"), ["<!--\n\nx\n-->\n", "y"]);
    assert.deepEqual(splitBlocks("<pre>\n\nx\n</pre>\n\ny"), ["<pre>\n\nx\n</pre>\n", "y"]);
    assert.deepEqual(splitBlocks("<!-- one line -->\n\ny"), ["<!-- one line -->\n", "y"]);
  });

  test("inline code of three backticks is not a fence", () => {
    assert.deepEqual(splitBlocks("```inline``` text\n\nnext"), ["```inline``` text\n", "next"]);
  });

  test("text with no blank line, and empty text, is one piece", () => {
    assert.deepEqual(splitBlocks("0.--------1.--------"), ["0.--------1.--------"]);
    assert.deepEqual(splitBlocks(""), [""]);
    assert.deepEqual(splitBlocks("\n\nx"), ["\n\nx"]);
  });

  test("a growing text keeps the pieces it had: only the last one changes", () => {
    const full = "# T\n\npara one\n\n```ts\nlet x = 1;\n```\n\npara two";
    let before = splitBlocks("");
    for (let n = 1; n <= full.length; n++) {
      const now = splitBlocks(full.slice(0, n));
      // Every piece but the last of the shorter text is still a piece of the longer one, unless
      // a cut was just undone (a column-0 line turned out to be a list item: not in this text).
      assert.deepEqual(now.slice(0, before.length - 1), before.slice(0, -1), `at ${n}`);
      before = now;
    }
  });
});
