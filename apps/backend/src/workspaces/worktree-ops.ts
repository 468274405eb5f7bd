// A task's worktree in git terms: create it (rolled back whole if any step fails), snapshot what is
// in it without touching it, save its uncommitted work as a commit, read its changes, remove it.
// Thin I/O over git.ts; the naming and parsing rules live in pure modules beside it.
import { randomUUID } from "node:crypto";
import { copyFile, mkdir, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { branchBaseName, folderNameFor, uniqueName } from "./branch-name.js";
import { capDiff, mergeFileStats, parseNameStatusZ, parseNumstatZ, type ChangedFile } from "./diff-parse.js";
import { GitError, gitLine, gitTest, runGit } from "./git.js";
import { identityArgs, listBranches, resolveBranch } from "./repo-ops.js";

/** A refusal that names the request field it is about (the route turns it into a 400 or 409). */
export class WorkspaceError extends Error {
  constructor(
    readonly reason: "base_branch_missing" | "branch_names_exhausted" | "worktree_failed" | "worktree_missing" | "repository_missing",
    message: string,
  ) {
    super(message);
    this.name = "WorkspaceError";
  }
}

export interface CreatedWorktree {
  branch: string;
  path: string;
  baseCommit: string;
}

/**
 * `git worktree add -b kandev/<slug>-<id> <dir>/<slug>-<id> <base commit>`. The branch name is
 * made unique against the repository's branches and the folders already under `worktreesDir`. A
 * name taken between the check and the add (another process) moves on to the next one; any other
 * failure (disk full, a hook that fails, a folder git cannot write) removes whatever the attempt
 * made, worktree and branch, and says what git said.
 */
export async function createWorktree(input: {
  repo: string;
  baseBranch: string;
  title: string;
  taskId: string;
  worktreesDir: string;
}): Promise<CreatedWorktree> {
  const { repo, baseBranch, worktreesDir } = input;
  const baseCommit = await resolveBranch(repo, baseBranch);
  if (baseCommit === null) throw new WorkspaceError("base_branch_missing", `the repository has no branch ${baseBranch}`);
  // Only the owner may enter: a worktree holds the repository's code and whatever the agent wrote.
  await mkdir(worktreesDir, { recursive: true, mode: 0o700 });
  const skip = new Set<string>();
  for (let attempt = 0; attempt < 3; attempt++) {
    const branches = new Set((await listBranches(repo)).map((b) => b.name));
    const folders = new Set<string>();
    const base = branchBaseName(input.title, input.taskId);
    for (let i = 1; i <= 100; i++) {
      const name = i === 1 ? base : `${base}-${i}`;
      if (await exists(path.join(worktreesDir, folderNameFor(name)))) folders.add(name);
    }
    const branch = uniqueName(base, (n) => branches.has(n) || folders.has(n) || skip.has(n));
    if (branch === undefined) throw new WorkspaceError("branch_names_exhausted", `every branch name from ${base} to ${base}-100 is taken`);
    const dir = path.join(worktreesDir, folderNameFor(branch));
    try {
      await runGit(["worktree", "add", "--quiet", "-b", branch, dir, baseCommit], { cwd: repo, timeoutMs: 120_000 });
      return { branch, path: dir, baseCommit };
    } catch (err) {
      await discardWorktree(repo, { branch, path: dir, baseCommit });
      if (err instanceof GitError && err.code === "GIT_FAILED" && /already exists/.test(err.stderr) && /branch/.test(err.stderr)) {
        skip.add(branch);
        continue;
      }
      if (err instanceof GitError && err.code !== "GIT_FAILED") throw err;
      throw new WorkspaceError("worktree_failed", `could not create the task's worktree: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new WorkspaceError("worktree_failed", "could not create the task's worktree: its branch name was taken three times in a row");
}

/**
 * Undoes a worktree the board has just made, before any work went into it: the worktree (forced: it
 * may be half checked out), then its branch, only while the branch still points at the base commit
 * (compare-and-swap, so a branch someone else made meanwhile is left alone).
 */
export async function discardWorktree(repo: string, created: CreatedWorktree): Promise<void> {
  await runGit(["worktree", "remove", "--force", created.path], { cwd: repo, okCodes: [128] }).catch(() => undefined);
  await runGit(["worktree", "prune"], { cwd: repo }).catch(() => undefined);
  if (await exists(created.path)) {
    // A folder git never registered (it failed while writing it): ours, and holding no work.
    await rm(created.path, { recursive: true, force: true }).catch(() => undefined);
  }
  await runGit(["update-ref", "-d", `refs/heads/${created.branch}`, created.baseCommit], { cwd: repo, okCodes: [1, 128] }).catch(() => undefined);
}

/**
 * The worktree's content as a git tree (committed, uncommitted and untracked work; ignored files
 * left out), written through a scratch index so the worktree and its own index are not touched.
 */
export async function snapshotTree(worktree: string): Promise<string> {
  const scratch = path.join(os.tmpdir(), `kandev-index-${randomUUID()}`);
  try {
    const own = path.resolve(worktree, await gitLine(["rev-parse", "--git-path", "index"], { cwd: worktree }));
    // Starting from the worktree's index keeps its stat cache: unchanged files are not re-read.
    const copied = await copyFile(own, scratch).then(
      () => true,
      () => false,
    );
    const env = { GIT_INDEX_FILE: scratch };
    if (!copied) await runGit(["read-tree", "HEAD"], { cwd: worktree, env });
    await runGit(["add", "--all", "--", "."], { cwd: worktree, env, timeoutMs: 120_000 });
    return await gitLine(["write-tree"], { cwd: worktree, env });
  } finally {
    await rm(scratch, { force: true });
  }
}

export async function headOf(worktree: string): Promise<string> {
  return gitLine(["rev-parse", "--verify", "HEAD^{commit}"], { cwd: worktree });
}

export interface Snapshot {
  head: string;
  /** `head` itself when nothing is uncommitted, else a new commit on top of it (not yet on any branch). */
  commit: string;
  saved: boolean;
}

/** Makes (but does not adopt) the commit that would save the worktree's uncommitted work. */
export async function snapshotCommit(worktree: string, identity: { name: string; email: string }, message: string): Promise<Snapshot> {
  const head = await headOf(worktree);
  const tree = await snapshotTree(worktree);
  const headTree = await gitLine(["rev-parse", `${head}^{tree}`], { cwd: worktree });
  if (tree === headTree) return { head, commit: head, saved: false };
  const commit = await gitLine([...identityArgs(identity), "commit-tree", tree, "-p", head, "-m", message], { cwd: worktree });
  return { head, commit, saved: true };
}

/**
 * Puts a snapshot commit on the task branch (compare-and-swap against the head it was made from)
 * and re-reads the index from it; the files in the worktree are not touched, they already are
 * that commit's content, so the worktree is clean afterwards.
 */
export async function adoptSnapshot(worktree: string, branch: string, snapshot: Snapshot): Promise<void> {
  if (!snapshot.saved) return;
  await runGit(["update-ref", "-m", "kandev: save the task's uncommitted work", `refs/heads/${branch}`, snapshot.commit, snapshot.head], {
    cwd: worktree,
  });
  await runGit(["reset", "--quiet", "--mixed"], { cwd: worktree });
}

/** Commits whatever is uncommitted in the worktree onto its branch; returns the new head. */
export async function saveWork(worktree: string, branch: string, identity: { name: string; email: string }, message: string): Promise<string> {
  const snapshot = await snapshotCommit(worktree, identity, message);
  await adoptSnapshot(worktree, branch, snapshot);
  return snapshot.commit;
}

export interface Changes {
  base_commit: string;
  branch: string;
  head_commit: string;
  files: ChangedFile[];
  diff: string;
  truncated: boolean;
}

/** Unified diffs bigger than this are cut (and `truncated` says so); the file list is always whole. */
export const MAX_DIFF_BYTES = 2 * 1024 * 1024;

/** The worktree against `baseCommit`: committed, uncommitted and untracked work, ignored files left out. */
export async function readChanges(worktree: string, baseCommit: string, branch: string, maxDiffBytes = MAX_DIFF_BYTES): Promise<Changes> {
  const head = await headOf(worktree);
  const tree = await snapshotTree(worktree);
  const common = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M"];
  const [names, nums, patch] = await Promise.all([
    runGit([...common, "--name-status", "-z", baseCommit, tree], { cwd: worktree }),
    runGit([...common, "--numstat", "-z", baseCommit, tree], { cwd: worktree }),
    // 0 asks for the file list only (the live refresh): no patch is made.
    maxDiffBytes > 0
      ? runGit([...common, "--src-prefix=a/", "--dst-prefix=b/", baseCommit, tree], {
          cwd: worktree,
          maxStdoutBytes: maxDiffBytes + 4096,
          timeoutMs: 60_000,
        })
      : Promise.resolve({ stdout: "", truncated: false }),
  ]);
  const capped = capDiff(patch.stdout, maxDiffBytes);
  return {
    base_commit: baseCommit,
    branch,
    head_commit: head,
    files: mergeFileStats(parseNameStatusZ(names.stdout), parseNumstatZ(nums.stdout)),
    diff: capped.diff,
    truncated: capped.truncated || patch.truncated,
  };
}

/**
 * `git worktree remove` (never forced: the caller saved the work first, so git refusing means
 * something is still there to keep). A folder already gone only has its bookkeeping pruned.
 */
export async function removeWorktree(repo: string, worktree: string): Promise<void> {
  if (!(await exists(worktree))) {
    await runGit(["worktree", "prune"], { cwd: repo });
    return;
  }
  await runGit(["worktree", "remove", worktree], { cwd: repo, timeoutMs: 120_000 });
}

export async function isAncestor(repo: string, ancestor: string, descendant: string): Promise<boolean> {
  return gitTest(["merge-base", "--is-ancestor", ancestor, descendant], { cwd: repo });
}

export async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}
