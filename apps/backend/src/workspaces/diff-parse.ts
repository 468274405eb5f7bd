// Parsers for what git prints about a diff, NUL-separated (`-z`) so any path, with spaces,
// newlines or non-ASCII characters, comes through verbatim. Pure, so every shape is tested directly.

export type ChangeStatus = "added" | "modified" | "deleted" | "renamed";

export interface ChangedFile {
  path: string;
  old_path?: string;
  status: ChangeStatus;
  additions: number;
  deletions: number;
  binary: boolean;
}

interface NameStatus {
  path: string;
  oldPath?: string;
  status: ChangeStatus;
}

/** `git diff --name-status -z -M`: `M\0path\0`, `R087\0old\0new\0`, `C100\0src\0dst\0`. */
export function parseNameStatusZ(text: string): NameStatus[] {
  const parts = text.split("\0");
  const out: NameStatus[] = [];
  for (let i = 0; i < parts.length; ) {
    const code = parts[i++] ?? "";
    if (code.length === 0) continue;
    const letter = code[0];
    if (letter === "R" || letter === "C") {
      const oldPath = parts[i++] ?? "";
      const path = parts[i++] ?? "";
      // A copy leaves its source in place: for the operator it is a new file.
      out.push(letter === "R" ? { path, oldPath, status: "renamed" } : { path, status: "added" });
      continue;
    }
    const path = parts[i++] ?? "";
    out.push({ path, status: letter === "A" ? "added" : letter === "D" ? "deleted" : "modified" });
  }
  return out;
}

interface NumStat {
  path: string;
  oldPath?: string;
  additions: number;
  deletions: number;
  binary: boolean;
}

/**
 * `git diff --numstat -z -M`: `12\t3\tpath\0`, or for a rename `12\t3\t\0old\0new\0`; a binary
 * file counts `-\t-`.
 */
export function parseNumstatZ(text: string): NumStat[] {
  const parts = text.split("\0");
  const out: NumStat[] = [];
  for (let i = 0; i < parts.length; ) {
    const head = parts[i++] ?? "";
    if (head.length === 0) continue;
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(head);
    if (match === null) continue;
    const binary = match[1] === "-" && match[2] === "-";
    const counts = { additions: binary ? 0 : Number(match[1]), deletions: binary ? 0 : Number(match[2]), binary };
    if (match[3] === "") {
      const oldPath = parts[i++] ?? "";
      const path = parts[i++] ?? "";
      out.push({ path, oldPath, ...counts });
    } else {
      out.push({ path: match[3]!, ...counts });
    }
  }
  return out;
}

/** One list of changed files from the two views of the same diff, in path order. */
export function mergeFileStats(nameStatus: NameStatus[], numstat: NumStat[]): ChangedFile[] {
  const counts = new Map(numstat.map((n) => [n.path, n]));
  return nameStatus
    .map((n): ChangedFile => {
      const c = counts.get(n.path);
      return {
        path: n.path,
        ...(n.oldPath !== undefined && { old_path: n.oldPath }),
        status: n.status,
        additions: c?.additions ?? 0,
        deletions: c?.deletions ?? 0,
        binary: c?.binary ?? false,
      };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * `git merge-tree --write-tree --name-only -z A B`: the merged tree's id, then (on conflicts, exit
 * 1) each conflicted path, an empty entry, then informational messages.
 */
export function parseMergeTree(text: string): { tree: string; conflicts: string[] } {
  const parts = text.split("\0");
  const tree = (parts[0] ?? "").trim();
  const conflicts: string[] = [];
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.length === 0) break;
    if (!conflicts.includes(p)) conflicts.push(p);
  }
  return { tree, conflicts };
}

export interface WorktreeEntry {
  path: string;
  head: string | null;
  /** `refs/heads/<name>` when a branch is checked out there. */
  branch: string | null;
  bare: boolean;
}

/** `git worktree list --porcelain -z`: blocks of `key value` lines separated by an empty entry. */
export function parseWorktreeList(text: string): WorktreeEntry[] {
  const out: WorktreeEntry[] = [];
  let current: WorktreeEntry | null = null;
  for (const line of text.split("\0")) {
    if (line.length === 0) {
      if (current !== null) out.push(current);
      current = null;
      continue;
    }
    const space = line.indexOf(" ");
    const key = space === -1 ? line : line.slice(0, space);
    const value = space === -1 ? "" : line.slice(space + 1);
    if (key === "worktree") current = { path: value, head: null, branch: null, bare: false };
    else if (current === null) continue;
    else if (key === "HEAD") current.head = value;
    else if (key === "branch") current.branch = value;
    else if (key === "bare") current.bare = true;
  }
  if (current !== null) out.push(current);
  return out;
}

/** Cuts a unified diff at `maxBytes`, at a line end, and says whether it did. */
export function capDiff(diff: string, maxBytes: number): { diff: string; truncated: boolean } {
  if (Buffer.byteLength(diff, "utf8") <= maxBytes) return { diff, truncated: false };
  let cut = Buffer.from(diff, "utf8").subarray(0, maxBytes).toString("utf8");
  // A multi-byte character cut in half decodes as U+FFFD: drop it with the partial line.
  const lastNewline = cut.lastIndexOf("\n");
  cut = lastNewline === -1 ? "" : cut.slice(0, lastNewline + 1);
  return { diff: cut, truncated: true };
}
