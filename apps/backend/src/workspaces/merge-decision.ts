// What a merge of a task's branch into its base branch should do, decided from facts read from git
// beforehand. Pure: the I/O shell (merge.ts) gathers the facts, asks, and only then writes.

export type MergeStrategy = "merge" | "squash";

export interface MergeFacts {
  strategy: MergeStrategy;
  /** The task's session is starting or in a turn: its agent may be writing files right now. */
  turnRunning: boolean;
  /** The base branch's tip, or null when the branch no longer exists. */
  baseTip: string | null;
  /** The task branch's tip, including the work about to be saved. */
  taskTip: string;
  /** Where the base branch is checked out, if anywhere, and whether that checkout has changes. */
  baseCheckout: { path: string; dirty: boolean } | null;
  /** The task's tip is already contained in the base branch: nothing to merge. */
  taskInBase: boolean;
  /** The base tip is an ancestor of the task's tip: the base can simply move forward. */
  baseIsAncestor: boolean;
  /** What `merge-tree` found, when it had to be asked (see needsMergeTree). */
  mergeTree: { tree: string; conflicts: string[] } | null;
}

export type MergeRefusal =
  | { kind: "refuse"; reason: "turn_running"; message: string }
  | { kind: "refuse"; reason: "base_missing"; message: string }
  | { kind: "refuse"; reason: "base_dirty"; message: string; path: string }
  | { kind: "refuse"; reason: "conflict"; message: string; files: string[] };

export type MergePlan =
  | MergeRefusal
  | { kind: "up_to_date"; commit: string }
  | { kind: "fast_forward"; from: string; to: string }
  | { kind: "commit"; from: string; tree: string; parents: string[] };

/** Whether the merged tree must be computed: every outcome but "nothing to do" and a plain fast-forward. */
export function needsMergeTree(f: Pick<MergeFacts, "strategy" | "taskInBase" | "baseIsAncestor">): boolean {
  if (f.taskInBase) return false;
  return f.strategy === "squash" || !f.baseIsAncestor;
}

/**
 * The merge decision. Refusals come first and in this order, so the operator reads the cause that
 * blocks everything else: a running turn, a vanished base branch, a dirty base checkout, conflicts.
 * Otherwise: nothing to do, a fast-forward (strategy merge, base not moved), or one new commit on
 * the base (a merge commit with both parents, or a squash commit with the base as its only parent).
 */
export function decideMerge(f: MergeFacts, branch: string, baseBranch: string): MergePlan {
  if (f.turnRunning) {
    return { kind: "refuse", reason: "turn_running", message: "a turn is running in this task; wait for it to end or cancel it, then merge" };
  }
  if (f.baseTip === null) {
    return { kind: "refuse", reason: "base_missing", message: `the base branch ${baseBranch} no longer exists in the repository` };
  }
  if (f.baseCheckout?.dirty === true) {
    return {
      kind: "refuse",
      reason: "base_dirty",
      path: f.baseCheckout.path,
      message: `the base branch ${baseBranch} is checked out at ${f.baseCheckout.path} with uncommitted changes; commit or stash them, then merge`,
    };
  }
  if (f.taskInBase) return { kind: "up_to_date", commit: f.baseTip };
  if (f.strategy === "merge" && f.baseIsAncestor) return { kind: "fast_forward", from: f.baseTip, to: f.taskTip };
  if (f.mergeTree === null) throw new Error("decideMerge: the merged tree was needed but not computed");
  if (f.mergeTree.conflicts.length > 0) {
    return {
      kind: "refuse",
      reason: "conflict",
      files: f.mergeTree.conflicts,
      message: `${branch} conflicts with ${baseBranch} in ${f.mergeTree.conflicts.join(", ")}; nothing was changed`,
    };
  }
  const parents = f.strategy === "merge" ? [f.baseTip, f.taskTip] : [f.baseTip];
  return { kind: "commit", from: f.baseTip, tree: f.mergeTree.tree, parents };
}

/** The commit message when the operator gives none. */
export function defaultMergeMessage(strategy: MergeStrategy, branch: string, baseBranch: string, title: string): string {
  return strategy === "squash"
    ? `${title}\n\nSquashed from ${branch} (Kandev task).`
    : `Merge branch '${branch}' into ${baseBranch}\n\nKandev task: ${title}`;
}
