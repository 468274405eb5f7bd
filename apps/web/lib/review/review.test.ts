import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildReviewPrompt, loadComments, saveComments, type ReviewComment } from "./comments";
import { diffLineCount, lineText, splitDiff } from "./diff-split";

const diff = [
  "diff --git a/README.md b/README.md",
  "index 1..2 100644",
  "--- a/README.md",
  "+++ b/README.md",
  "@@ -1,3 +1,3 @@",
  " # Project",
  "-old line",
  "+new line",
  " last",
  "diff --git a/new file.ts b/new file.ts",
  "new file mode 100644",
  "--- /dev/null",
  "+++ b/new file.ts\t",
  "@@ -0,0 +1,2 @@",
  "+one",
  "+two",
  "diff --git a/gone.txt b/gone.txt",
  "deleted file mode 100644",
  "--- a/gone.txt",
  "+++ /dev/null",
  "@@ -1 +0,0 @@",
  "-bye",
  "diff --git a/logo.png b/logo.png",
  "Binary files a/logo.png and b/logo.png differ",
  "diff --git a/old.ts b/renamed.ts",
  "similarity index 100%",
  "rename from old.ts",
  "rename to renamed.ts",
  "",
].join("\n");

describe("splitting a diff by file", () => {
  it("finds each file's block, whatever kind of change it is", () => {
    assert.deepEqual([...splitDiff(diff).keys()], ["README.md", "new file.ts", "gone.txt", "logo.png", "renamed.ts"]);
  });

  it("reads a line's text on either side", () => {
    const readme = splitDiff(diff).get("README.md")!;
    assert.equal(lineText(readme, "new", 2), "new line");
    assert.equal(lineText(readme, "old", 2), "old line");
    assert.equal(lineText(readme, "new", 3), "last");
    assert.equal(lineText(readme, "new", 9), null);
    assert.equal(lineText(splitDiff(diff).get("new file.ts")!, "new", 2), "two");
  });

  it("counts the lines a file's diff shows", () => {
    assert.equal(diffLineCount(splitDiff(diff).get("README.md")!), 4);
  });
});

describe("the review prompt", () => {
  const comments: ReviewComment[] = [
    { id: "2", path: "src/b.ts", side: "new", line: 10, quote: "const x = 1;", body: "Name this better" },
    { id: "1", path: "src/a.ts", side: "old", line: 3, quote: "removed()", body: "Why remove this?\nIt is used." },
  ];

  it("quotes each comment with path:line and its line, in file order", () => {
    assert.equal(
      buildReviewPrompt(comments, "Please address this review:"),
      "Please address this review:\n\n" +
        "1. src/a.ts:3 (removed line)\n   > removed()\n   Why remove this?\n   It is used.\n\n" +
        "2. src/b.ts:10\n   > const x = 1;\n   Name this better\n",
    );
  });

  it("keeps unsent comments in storage per task and drops what is corrupt", () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    };
    saveComments(storage, "t1", comments);
    assert.deepEqual(loadComments(storage, "t1"), comments);
    assert.deepEqual(loadComments(storage, "t2"), []);
    saveComments(storage, "t1", []);
    assert.equal(data.size, 0);
    data.set("kandev.review.t3", "{not json");
    assert.deepEqual(loadComments(storage, "t3"), []);
  });
});
