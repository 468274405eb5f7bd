import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { diffCounts, lineDiff, MAX_CELLS, splitLines } from "./line-diff";

const render = (oldText: string | null, newText: string) =>
  lineDiff(oldText, newText).map((l) => `${l.kind === "add" ? "+" : l.kind === "del" ? "-" : " "}${l.text}`);

describe("line diff", () => {
  test("a changed line in the middle is removed then added, the rest kept with both line numbers", () => {
    const lines = lineDiff("a\nb\nc\n", "a\nB\nc\n");
    assert.deepEqual(lines, [
      { kind: "same", text: "a", oldLine: 1, newLine: 1 },
      { kind: "del", text: "b", oldLine: 2, newLine: null },
      { kind: "add", text: "B", oldLine: null, newLine: 2 },
      { kind: "same", text: "c", oldLine: 3, newLine: 3 },
    ]);
  });

  test("a new file (old text null) is all added", () => {
    assert.deepEqual(render(null, "x\ny\n"), ["+x", "+y"]);
  });

  test("insertions and deletions keep the common lines in order", () => {
    assert.deepEqual(render("1\n2\n3\n4\n", "0\n1\n3\n4\n5\n"), ["+0", " 1", "-2", " 3", " 4", "+5"]);
    assert.deepEqual(diffCounts(lineDiff("1\n2\n3\n4\n", "0\n1\n3\n4\n5\n")), { added: 2, removed: 1 });
  });

  test("line numbers after a change follow each side", () => {
    const last = lineDiff("a\nb\nz\n", "a\nx\ny\nb\nz\n").at(-1);
    assert.deepEqual(last, { kind: "same", text: "z", oldLine: 3, newLine: 5 });
  });

  test("a middle too big for the table is shown as removed then added", () => {
    const side = Math.ceil(Math.sqrt(MAX_CELLS)) + 1;
    const a = Array.from({ length: side }, (_, i) => `a${i}`).join("\n");
    const b = Array.from({ length: side }, (_, i) => `b${i}`).join("\n");
    const lines = lineDiff(a, b);
    assert.equal(lines.length, side * 2);
    assert.equal(lines[0]!.kind, "del");
    assert.equal(lines[side]!.kind, "add");
  });

  test("a final newline does not make an empty last line", () => {
    assert.deepEqual(splitLines("a\n"), ["a"]);
    assert.deepEqual(splitLines("a\n\n"), ["a", ""]);
    assert.deepEqual(splitLines(""), []);
  });
});
