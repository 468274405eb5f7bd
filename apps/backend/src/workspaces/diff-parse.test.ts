import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { capDiff, mergeFileStats, parseMergeTree, parseNameStatusZ, parseNumstatZ, parseWorktreeList } from "./diff-parse.js";

describe("diff-stat parsing", () => {
  it("reads added, modified, deleted and renamed files with their counts", () => {
    const names = parseNameStatusZ("A\0new file.txt\0M\0src/a.ts\0D\0gone.md\0R091\0old name.ts\0né.ts\0");
    const nums = parseNumstatZ("3\t0\tnew file.txt\0" + "2\t1\tsrc/a.ts\0" + "0\t7\tgone.md\0" + "1\t1\t\0old name.ts\0né.ts\0");
    assert.deepEqual(mergeFileStats(names, nums), [
      { path: "gone.md", status: "deleted", additions: 0, deletions: 7, binary: false },
      { path: "new file.txt", status: "added", additions: 3, deletions: 0, binary: false },
      { path: "né.ts", old_path: "old name.ts", status: "renamed", additions: 1, deletions: 1, binary: false },
      { path: "src/a.ts", status: "modified", additions: 2, deletions: 1, binary: false },
    ]);
  });

  it("marks binary files and counts nothing for them", () => {
    const files = mergeFileStats(parseNameStatusZ("A\0logo.png\0"), parseNumstatZ("-\t-\tlogo.png\0"));
    assert.deepEqual(files, [{ path: "logo.png", status: "added", additions: 0, deletions: 0, binary: true }]);
  });

  it("treats a type change as modified and a copy as added", () => {
    const names = parseNameStatusZ("T\0link\0C100\0a.txt\0b.txt\0");
    assert.deepEqual(names, [
      { path: "link", status: "modified" },
      { path: "b.txt", status: "added" },
    ]);
  });

  it("keeps a path with a tab or newline intact", () => {
    const nums = parseNumstatZ("1\t0\tweird\tname\nx\0");
    assert.equal(nums[0]?.path, "weird\tname\nx");
  });

  it("returns nothing for an empty diff", () => {
    assert.deepEqual(mergeFileStats(parseNameStatusZ(""), parseNumstatZ("")), []);
  });
});

describe("merge-tree output", () => {
  it("reads the tree alone when the merge is clean", () => {
    assert.deepEqual(parseMergeTree("abc123\0"), { tree: "abc123", conflicts: [] });
  });

  it("lists each conflicted path once", () => {
    const out = "129b8e\0f\0f\0dir/g h\0\0" + "1\0f\0Auto-merging\0Auto-merging f\n\0";
    assert.deepEqual(parseMergeTree(out), { tree: "129b8e", conflicts: ["f", "dir/g h"] });
  });
});

describe("worktree list", () => {
  it("reads each worktree's path, head and branch", () => {
    const out = "worktree /r\0HEAD aaa\0branch refs/heads/main\0\0worktree /w t\0HEAD bbb\0detached\0\0";
    assert.deepEqual(parseWorktreeList(out), [
      { path: "/r", head: "aaa", branch: "refs/heads/main", bare: false },
      { path: "/w t", head: "bbb", branch: null, bare: false },
    ]);
  });
});

describe("diff cap", () => {
  it("keeps a small diff whole", () => {
    assert.deepEqual(capDiff("a\nb\n", 100), { diff: "a\nb\n", truncated: false });
  });

  it("cuts a large diff at a line end and says so", () => {
    const { diff, truncated } = capDiff("line one\nline two\nline three\n", 15);
    assert.equal(diff, "line one\n");
    assert.equal(truncated, true);
  });

  it("never leaves half a multi-byte character", () => {
    const { diff } = capDiff("ééé\néééé\n", 9);
    assert.equal(diff, "ééé\n");
  });
});
