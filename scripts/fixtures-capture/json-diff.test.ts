import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { compactJson, diffJson, formatDiffEntry, joinPath } from "./json-diff.js";

describe("json diff", () => {
  test("equal values have no diff, whatever their key order", () => {
    assert.deepEqual(diffJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }), []);
    assert.deepEqual(diffJson(null, null), []);
  });

  test("a changed leaf, an added key and a removed key are one entry each, with full paths", () => {
    const before = { createRequest: { message: "old", schema: { question_0_custom: { _meta: { x: 1 } } } } };
    const after = { createRequest: { message: "new", schema: { question_0_custom: {} }, toolCallId: "t" } };
    assert.deepEqual(diffJson(before, after), [
      { path: "createRequest.message", kind: "changed", before: "old", after: "new" },
      { path: "createRequest.schema.question_0_custom._meta", kind: "removed", before: { x: 1 } },
      { path: "createRequest.toolCallId", kind: "added", after: "t" },
    ]);
  });

  test("arrays compare index by index; extra items are added or removed at their index", () => {
    assert.deepEqual(diffJson({ xs: [1, 2, 3] }, { xs: [1, 5] }), [
      { path: "xs[1]", kind: "changed", before: 2, after: 5 },
      { path: "xs[2]", kind: "removed", before: 3 },
    ]);
    assert.deepEqual(diffJson([], [{ a: 1 }]), [{ path: "[0]", kind: "added", after: { a: 1 } }]);
  });

  test("a type change (object to null, array to object) is a change of the whole value", () => {
    assert.deepEqual(diffJson({ allBad: [1] }, { allBad: null }), [{ path: "allBad", kind: "changed", before: [1], after: null }]);
    assert.deepEqual(diffJson([1], { 0: 1 }), [{ path: "(root)", kind: "changed", before: [1], after: { 0: 1 } }]);
  });

  test("keys that are not identifiers are quoted, so every path is unambiguous", () => {
    assert.equal(joinPath("", "results"), "results");
    assert.equal(joinPath("results", "accept-all"), 'results["accept-all"]');
    assert.equal(joinPath("answers", "Which DB?"), 'answers["Which DB?"]');
    assert.equal(joinPath("responseMapping", "2"), 'responseMapping["2"]');
    assert.equal(joinPath("xs", 3), "xs[3]");
    assert.equal(joinPath("", "_claude/askUserQuestionOption"), '["_claude/askUserQuestionOption"]');
  });

  test("entries print as one compact line each, long values cut", () => {
    assert.equal(formatDiffEntry({ path: "a.b", kind: "changed", before: "x", after: ["y"] }), '~ a.b: "x" -> ["y"]');
    assert.equal(formatDiffEntry({ path: "a", kind: "added", after: { k: 1 } }), '+ a: {"k":1}');
    assert.equal(formatDiffEntry({ path: "a", kind: "removed", before: null }), "- a: null");
    const long = compactJson("x".repeat(500));
    assert.equal(long.length, 100);
    assert.ok(long.endsWith("…"));
    assert.equal(compactJson(undefined), "undefined");
  });
});
