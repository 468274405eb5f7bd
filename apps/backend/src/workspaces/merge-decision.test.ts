import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decideMerge, needsMergeTree, type MergeFacts } from "./merge-decision.js";

const facts = (over: Partial<MergeFacts> = {}): MergeFacts => ({
  strategy: "merge",
  turnRunning: false,
  baseTip: "base1",
  taskTip: "task1",
  baseCheckout: null,
  taskInBase: false,
  baseIsAncestor: false,
  mergeTree: { tree: "tree1", conflicts: [] },
  ...over,
});
const decide = (f: MergeFacts) => decideMerge(f, "kandev/x", "main");

describe("the merge decision", () => {
  it("refuses while a turn runs, before anything else", () => {
    const plan = decide(facts({ turnRunning: true, baseTip: null, mergeTree: { tree: "t", conflicts: ["a"] } }));
    assert.equal(plan.kind === "refuse" && plan.reason, "turn_running");
  });

  it("refuses when the base branch is gone", () => {
    const plan = decide(facts({ baseTip: null }));
    assert.equal(plan.kind === "refuse" && plan.reason, "base_missing");
  });

  it("refuses when the base branch's checkout has uncommitted changes, naming where", () => {
    const plan = decide(facts({ baseCheckout: { path: "/repo", dirty: true } }));
    assert.ok(plan.kind === "refuse" && plan.reason === "base_dirty");
    assert.match(plan.message, /\/repo/);
    assert.match(plan.message, /uncommitted changes/);
  });

  it("refuses a conflicting merge and names the files", () => {
    const plan = decide(facts({ mergeTree: { tree: "t", conflicts: ["a.txt", "b c.txt"] } }));
    assert.ok(plan.kind === "refuse" && plan.reason === "conflict");
    assert.deepEqual(plan.files, ["a.txt", "b c.txt"]);
  });

  it("does nothing when the task's work is already in the base", () => {
    assert.deepEqual(decide(facts({ taskInBase: true, mergeTree: null })), { kind: "up_to_date", commit: "base1" });
  });

  it("fast-forwards a merge when the base has not moved", () => {
    assert.deepEqual(decide(facts({ baseIsAncestor: true, mergeTree: null })), { kind: "fast_forward", from: "base1", to: "task1" });
  });

  it("makes a merge commit with both parents when the base moved", () => {
    assert.deepEqual(decide(facts()), { kind: "commit", from: "base1", tree: "tree1", parents: ["base1", "task1"] });
  });

  it("makes a squash commit with the base as its only parent, even when a fast-forward was possible", () => {
    assert.deepEqual(decide(facts({ strategy: "squash", baseIsAncestor: true })), {
      kind: "commit",
      from: "base1",
      tree: "tree1",
      parents: ["base1"],
    });
  });

  it("a clean checkout of the base does not block", () => {
    const plan = decide(facts({ baseCheckout: { path: "/repo", dirty: false }, baseIsAncestor: true }));
    assert.equal(plan.kind, "fast_forward");
  });

  it("asks for the merged tree only when a commit may be made", () => {
    assert.equal(needsMergeTree({ strategy: "merge", taskInBase: false, baseIsAncestor: true }), false);
    assert.equal(needsMergeTree({ strategy: "merge", taskInBase: false, baseIsAncestor: false }), true);
    assert.equal(needsMergeTree({ strategy: "squash", taskInBase: false, baseIsAncestor: true }), true);
    assert.equal(needsMergeTree({ strategy: "squash", taskInBase: true, baseIsAncestor: true }), false);
  });
});
