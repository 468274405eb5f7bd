import { z } from "zod";

/** Repositories, task worktrees, their changes and landing them (docs/API.md "Repositories", "Workspaces"). */

export const RepositorySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The work tree's top folder on the board's machine. */
  path: z.string(),
  default_branch: z.string(),
  created_at: z.string(),
});
export type Repository = z.infer<typeof RepositorySchema>;

export const CreateRepositoryBodySchema = z.object({
  path: z.string().trim().min(1).max(4096),
  name: z.string().trim().min(1).max(200).optional(),
});
export type CreateRepositoryBody = z.infer<typeof CreateRepositoryBodySchema>;

export const BranchSchema = z.object({ name: z.string(), commit: z.string(), current: z.boolean() });
export type Branch = z.infer<typeof BranchSchema>;
export const BranchesResultSchema = z.object({ branches: z.array(BranchSchema) });
export type BranchesResult = z.infer<typeof BranchesResultSchema>;

/** A task's own git worktree, on its own branch made from the base branch's commit. */
export const TaskWorkspaceSchema = z.object({
  repository_id: z.string(),
  base_branch: z.string(),
  base_commit: z.string(),
  branch: z.string(),
  path: z.string(),
  /** Who merged the task, once it was merged ("local" on a board without sign-in). */
  merged_by: z.string().optional(),
});
export type TaskWorkspace = z.infer<typeof TaskWorkspaceSchema>;

export const ChangedFileSchema = z.object({
  path: z.string(),
  old_path: z.string().optional(),
  status: z.enum(["added", "modified", "deleted", "renamed"]),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
  binary: z.boolean(),
});
export type ChangedFile = z.infer<typeof ChangedFileSchema>;

export const TaskChangesSchema = z.object({
  base_commit: z.string(),
  branch: z.string(),
  head_commit: z.string(),
  files: z.array(ChangedFileSchema),
  /** A unified diff of every file, cut at 2 MiB (then `truncated` is true). */
  diff: z.string(),
  truncated: z.boolean(),
});
export type TaskChanges = z.infer<typeof TaskChangesSchema>;

export const MergeBodySchema = z.object({
  strategy: z.enum(["merge", "squash"]).optional(),
  message: z.string().trim().min(1).max(10_000).optional(),
});
export type MergeBody = z.infer<typeof MergeBodySchema>;
export const MergeResultSchema = z.object({
  commit: z.string(),
  base_branch: z.string(),
  /** Who merged ("local" on a board without sign-in); a merge commit also carries a `Merged-by:` trailer. */
  merged_by: z.string(),
});
export type MergeResult = z.infer<typeof MergeResultSchema>;

export const PushBodySchema = z.object({
  remote: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "a remote name: letters, digits, '.', '_' and '-'")
    .optional(),
});
export type PushBody = z.infer<typeof PushBodySchema>;
export const PushResultSchema = z.object({ remote: z.string(), branch: z.string(), output: z.string() });
export type PushResult = z.infer<typeof PushResultSchema>;

/** `/ws` `task.changes.updated`: the task's changed files after a turn ended or an edit completed. */
export const TaskChangesUpdatedSchema = z.object({ task_id: z.string(), files: z.array(ChangedFileSchema) });
export type TaskChangesUpdated = z.infer<typeof TaskChangesUpdatedSchema>;

/** `/ws` `task.deleted`: the task is gone from the board. */
export const TaskDeletedSchema = z.object({ task_id: z.string() });
export type TaskDeleted = z.infer<typeof TaskDeletedSchema>;
