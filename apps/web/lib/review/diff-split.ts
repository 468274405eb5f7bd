// A whole unified diff (GET /tasks/:id/changes) cut into one piece per file, and the text of a line
// on either side of a file's diff. Pure, so the review's quotes are tested directly.

/** The path a `diff --git` block is about (its new path; the old one for a deleted file). */
export function pathOfBlock(block: string): string | null {
  const lines = block.split("\n");
  const renameTo = lines.find((l) => l.startsWith("rename to "));
  if (renameTo !== undefined) return renameTo.slice("rename to ".length);
  const plus = lines.find((l) => l.startsWith("+++ "));
  if (plus !== undefined && plus !== "+++ /dev/null") return plus.slice("+++ b/".length).replace(/\t$/, "");
  const minus = lines.find((l) => l.startsWith("--- "));
  if (minus !== undefined && minus !== "--- /dev/null") return minus.slice("--- a/".length).replace(/\t$/, "");
  // No ---/+++ (binary, mode-only): the header names the path twice, `a/P b/P`.
  const rest = (lines[0] ?? "").slice("diff --git ".length);
  const length = (rest.length - 5) / 2;
  if (Number.isInteger(length) && length > 0) return rest.slice(2, 2 + length);
  return null;
}

/** Each file's `diff --git` block, by path. */
export function splitDiff(diff: string): Map<string, string> {
  const out = new Map<string, string>();
  const starts: number[] = [];
  const re = /^diff --git /gm;
  for (let m = re.exec(diff); m !== null; m = re.exec(diff)) starts.push(m.index);
  starts.forEach((start, i) => {
    const block = diff.slice(start, starts[i + 1] ?? diff.length);
    const path = pathOfBlock(block);
    if (path !== null) out.set(path, block);
  });
  return out;
}

/** How many lines a file's diff shows (its length decides whether it starts collapsed). */
export function diffLineCount(block: string): number {
  return block.split("\n").filter((l) => /^[ +-]/.test(l) && !l.startsWith("+++") && !l.startsWith("---")).length;
}

/** The text of line `lineNumber` on the old or new side, as the diff shows it; null when the diff does not show it. */
export function lineText(block: string, side: "old" | "new", lineNumber: number): string | null {
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const line of block.split("\n")) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk !== null) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      continue;
    }
    if (!inHunk || line.startsWith("\\")) continue;
    const mark = line[0];
    const text = line.slice(1);
    if (mark === " ") {
      if ((side === "old" ? oldLine : newLine) === lineNumber) return text;
      oldLine++;
      newLine++;
    } else if (mark === "-") {
      if (side === "old" && oldLine === lineNumber) return text;
      oldLine++;
    } else if (mark === "+") {
      if (side === "new" && newLine === lineNumber) return text;
      newLine++;
    }
  }
  return null;
}
