// Landing a task: its branch (with the worktree's uncommitted work saved on top) goes into the base
// branch. Facts are read first and the decision is pure (merge-decision.ts); git objects are
// written before any ref moves; a conflict or a refusal therefore changes nothing anywhere: no
// half-merge, no conflict markers, no MERGE_HEAD, the worktree untouched.
import path from "node:path";
import { parseMergeTree, parseWorktreeList } from "./diff-parse.js";
import { GitError, gitLine, runGit } from "./git.js";
import { decideMerge, defaultMergeMessage, needsMergeTree, type MergePlan, type MergeRefusal, type MergeStrategy } from "./merge-decision.js";
import { commitIdentity, identityArgs, resolveBranch } from "./repo-ops.js";
import { adoptSnapshot, isAncestor, snapshotCommit } from "./worktree-ops.js";

export interface MergeInput {
  repo: string;
  worktree: string;
  branch: string;
  baseBranch: string;
  title: string;
  strategy: MergeStrategy;
  message?: string | undefined;
  /** Who merges: a `Merged-by:` trailer of the commit the merge writes (a fast-forward writes none). */
  mergedBy?: string | undefined;
  turnRunning: boolean;
}

export type MergeOutcome =
  | { kind: "merged"; commit: string; base_branch: string }
  | MergeRefusal
  | { kind: "refuse"; reason: "base_moved" | "checkout_blocked"; message: string };

export const SAVE_MESSAGE = "Save the task's uncommitted work (Kandev)";

/** Where `refs/heads/<branch>` is checked out (any work tree of the repository), or null. */
export async function checkoutOf(repo: string, branch: string): Promise<string | null> {
  const { stdout } = await runGit(["worktree", "list", "--porcelain", "-z"], { cwd: repo });
  const entry = parseWorktreeList(stdout).find((w) => w.branch === `refs/heads/${branch}`);
  return entry?.path ?? null;
}

/** Tracked files changed or staged in a checkout (untracked files do not count: a merge never writes over them silently). */
async function isDirty(checkout: string): Promise<boolean> {
  const { stdout } = await runGit(["status", "--porcelain=v1", "-z", "--untracked-files=no"], { cwd: checkout });
  return stdout.length > 0;
}

export async function mergeTask(input: MergeInput): Promise<MergeOutcome> {
  const { repo, worktree, branch, baseBranch, strategy } = input;
  const identity = await commitIdentity(repo);
  const baseTip = await resolveBranch(repo, baseBranch);
  const snapshot = await snapshotCommit(worktree, identity, SAVE_MESSAGE);
  const checkout = await checkoutOf(repo, baseBranch);
  const baseCheckout = checkout === null ? null : { path: checkout, dirty: await isDirty(checkout) };
  const taskInBase = baseTip !== null && (await isAncestor(repo, snapshot.commit, baseTip));
  const baseIsAncestor = baseTip !== null && (await isAncestor(repo, baseTip, snapshot.commit));
  const facts = {
    strategy,
    turnRunning: input.turnRunning,
    baseTip,
    taskTip: snapshot.commit,
    baseCheckout,
    taskInBase,
    baseIsAncestor,
    mergeTree: null as { tree: string; conflicts: string[] } | null,
  };
  if (!input.turnRunning && baseTip !== null && baseCheckout?.dirty !== true && needsMergeTree(facts)) {
    facts.mergeTree = await mergeTreeOf(repo, baseTip, snapshot.commit);
  }
  const plan: MergePlan = decideMerge(facts, branch, baseBranch);
  if (plan.kind === "refuse") return plan;
  if (plan.kind === "up_to_date") {
    await adoptSnapshot(worktree, branch, snapshot);
    return { kind: "merged", commit: plan.commit, base_branch: baseBranch };
  }
  let target: string;
  if (plan.kind === "fast_forward") target = plan.to;
  else {
    const message = withMergedBy(input.message ?? defaultMergeMessage(strategy, branch, baseBranch, input.title), input.mergedBy);
    const parents = plan.parents.flatMap((p) => ["-p", p]);
    target = await gitLine([...identityArgs(identity), "commit-tree", plan.tree, ...parents, "-m", message], { cwd: repo });
  }
  const moved = await moveBase(repo, baseBranch, plan.from, target, checkout, strategy);
  if (moved !== null) return moved;
  // The base holds the work now; the task branch keeps it too, and its worktree reads clean.
  await adoptSnapshot(worktree, branch, snapshot);
  return { kind: "merged", commit: target, base_branch: baseBranch };
}

/** The message with a `Merged-by: <user>` trailer (a git trailer: last paragraph, `Key: value`). */
export function withMergedBy(message: string, user: string | undefined): string {
  if (user === undefined) return message;
  const body = message.replace(/\s+$/, "");
  const lastParagraph = body.split(/\n\s*\n/).at(-1) ?? "";
  const endsWithTrailers = body.includes("\n\n") && lastParagraph.split("\n").every((l) => /^[A-Za-z0-9-]+: /.test(l));
  return `${body}${endsWithTrailers ? "\n" : "\n\n"}Merged-by: ${user}\n`;
}

async function mergeTreeOf(repo: string, baseTip: string, taskTip: string): Promise<{ tree: string; conflicts: string[] }> {
  try {
    const r = await runGit(["merge-tree", "--write-tree", "--name-only", "-z", baseTip, taskTip], { cwd: repo, okCodes: [1], timeoutMs: 120_000 });
    return parseMergeTree(r.stdout);
  } catch (err) {
    if (err instanceof GitError && err.exitCode === 129) {
      throw new GitError(
        "GIT_FAILED",
        "merging needs git 2.38 or newer (git merge-tree --write-tree); upgrade git on the board's machine",
        err.args,
        err.stderr,
        129,
      );
    }
    throw err;
  }
}

/**
 * Moves the base branch from `from` to `to`. Where it is checked out, `git merge --ff-only` moves
 * ref, index and files together (to is a descendant of from), refusing rather than overwriting an
 * untracked file; elsewhere `git update-ref` with `from` as the expected old value, so a base that
 * moved meanwhile is never overwritten. Returns a refusal, or null once moved.
 */
async function moveBase(
  repo: string,
  baseBranch: string,
  from: string,
  to: string,
  checkout: string | null,
  strategy: MergeStrategy,
): Promise<MergeOutcome | null> {
  const reflog = `kandev: ${strategy} a task into ${baseBranch}`;
  if (checkout === null) {
    const r = await runGit(["update-ref", "-m", reflog, `refs/heads/${baseBranch}`, to, from], { cwd: repo, okCodes: [128, 1] });
    if (r.code !== 0)
      return { kind: "refuse", reason: "base_moved", message: `the base branch ${baseBranch} moved while merging; nothing was changed, try again` };
    return null;
  }
  const current = await resolveBranch(repo, baseBranch);
  if (current !== from)
    return { kind: "refuse", reason: "base_moved", message: `the base branch ${baseBranch} moved while merging; nothing was changed, try again` };
  const r = await runGit(["merge", "--ff-only", "--quiet", "--no-edit", to], { cwd: checkout, okCodes: [1, 128], timeoutMs: 120_000 });
  if (r.code !== 0) {
    const said = r.stderr.trim().split("\n").slice(0, 6).join(" / ");
    return {
      kind: "refuse",
      reason: "checkout_blocked",
      message: `the base branch's checkout at ${path.resolve(checkout)} could not move to the merged commit (${said}); nothing was changed`,
    };
  }
  return null;
}
