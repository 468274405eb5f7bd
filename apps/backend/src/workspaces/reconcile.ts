// At start, nothing about worktrees is assumed: a task whose worktree folder vanished is reported on
// the task (an error message in its transcript) and in the log; a folder under KANDEV_WORKTREES_DIR
// that no task owns is reported in the log. Neither is deleted, repaired or pruned: there may be
// work in it, and only the operator knows.
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { LiveStore } from "../lifecycle/store.js";
import type { Logger } from "../logger.js";
import * as messagesRepo from "../repos/messages.js";
import * as sessionsRepo from "../repos/sessions.js";
import * as records from "./records.js";
import { exists } from "./worktree-ops.js";

export interface ReconcileReport {
  /** Tasks whose worktree folder is gone. */
  missing: Array<{ taskId: string; path: string }>;
  /** Folders under the worktrees folder that belong to no task. */
  orphans: string[];
}

/** Pure: which folders belong to no task (by resolved path). */
export function orphanFolders(folders: readonly string[], owned: readonly string[]): string[] {
  const taken = new Set(owned.map((p) => path.resolve(p)));
  return folders.filter((f) => !taken.has(path.resolve(f))).sort();
}

export async function reconcileWorktrees(store: LiveStore, worktreesDir: string, logger: Logger): Promise<ReconcileReport> {
  const owned = records.listTaskWorkspaces(store.db);
  const missing: ReconcileReport["missing"] = [];
  for (const { taskId, workspace } of owned) {
    if (await exists(workspace.path)) continue;
    missing.push({ taskId, path: workspace.path });
    logger.warn("a task's worktree folder is missing; the task is kept and marked", { task: taskId, path: workspace.path, branch: workspace.branch });
    reportMissing(store, taskId, workspace.path, workspace.branch);
  }
  const entries = await readdir(worktreesDir, { withFileTypes: true }).catch(() => []);
  const folders = entries.filter((e) => e.isDirectory()).map((e) => path.join(worktreesDir, e.name));
  const orphans = orphanFolders(
    folders,
    owned.map((o) => o.workspace.path),
  );
  for (const folder of orphans) logger.warn("a worktree folder belongs to no task; it is left in place", { path: folder });
  return { missing, orphans };
}

/** One error message on the task's latest session, written once however often the board restarts. */
function reportMissing(store: LiveStore, taskId: string, folder: string, branch: string): void {
  const latest = sessionsRepo.latestSessionsByTask(store.db, [taskId]).get(taskId);
  if (latest === undefined) return;
  const already = messagesRepo
    .listMessages(store.db, latest.id)
    .some((m) => m.type === "error" && m.metadata.workspace === "missing" && m.metadata.path === folder);
  if (already) return;
  store.addMessage({
    sessionId: latest.id,
    taskId,
    turnId: null,
    authorType: "agent",
    type: "error",
    content: `The task's worktree ${folder} is missing (its branch ${branch} is kept in the repository). Recreate it with git worktree add, or delete the task.`,
    metadata: { workspace: "missing", path: folder, branch },
  });
}
