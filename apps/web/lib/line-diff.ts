/**
 * A line diff of two texts for a tool call's edit card (pure). Common leading and trailing lines
 * are matched first, the middle by a longest-common-subsequence table; a middle too large for the
 * table (over MAX_CELLS) is shown as all removed then all added, which is still correct, just coarse.
 * Written here rather than pulling in a diff library: the card needs only lines, and this is ~60 lines.
 */

export interface DiffLine {
  kind: "same" | "add" | "del";
  text: string;
  /** 1-based line number in the old text (same, del) and in the new text (same, add). */
  oldLine: number | null;
  newLine: number | null;
}

/** The most cells the LCS table may have (a 2000 x 2000 middle). */
export const MAX_CELLS = 4_000_000;

/** Lines of a text; a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The lines of `oldText` -> `newText` in order; `oldText` null (a new file) makes every line added. */
export function lineDiff(oldText: string | null, newText: string): DiffLine[] {
  const a = splitLines(oldText ?? "");
  const b = splitLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const out: DiffLine[] = [];
  for (let i = 0; i < start; i++) out.push({ kind: "same", text: a[i]!, oldLine: i + 1, newLine: i + 1 });
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  for (const op of middleOps(midA, midB)) {
    if (op.kind === "same") out.push({ kind: "same", text: midA[op.i]!, oldLine: start + op.i + 1, newLine: start + op.j + 1 });
    else if (op.kind === "del") out.push({ kind: "del", text: midA[op.i]!, oldLine: start + op.i + 1, newLine: null });
    else out.push({ kind: "add", text: midB[op.j]!, oldLine: null, newLine: start + op.j + 1 });
  }
  for (let k = 0; endA + k < a.length; k++) {
    out.push({ kind: "same", text: a[endA + k]!, oldLine: endA + k + 1, newLine: endB + k + 1 });
  }
  return out;
}

type Op = { kind: "same" | "del" | "add"; i: number; j: number };

function middleOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || n * m > MAX_CELLS) {
    return [...a.map((_, i) => ({ kind: "del" as const, i, j: -1 })), ...b.map((_, j) => ({ kind: "add" as const, i: -1, j }))];
  }
  // lcs[i][j]: length of the LCS of a[i..] and b[j..], one flat array.
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) ops.push({ kind: "same", i: i++, j: j++ });
    else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) ops.push({ kind: "del", i: i++, j });
    else ops.push({ kind: "add", i, j: j++ });
  }
  while (i < n) ops.push({ kind: "del", i: i++, j });
  while (j < m) ops.push({ kind: "add", i, j: j++ });
  return ops;
}

/** How many lines a diff adds and removes (the card's +n −m). */
export function diffCounts(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === "add") added++;
    else if (l.kind === "del") removed++;
  }
  return { added, removed };
}
