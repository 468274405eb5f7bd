// Repositories and task workspaces as the REST API sees them: validation, locks, and the order of
// git steps and database writes. The git work itself is in repo-ops.ts, worktree-ops.ts, merge.ts.
import type {
  BranchesResult,
  CreateRepositoryBody,
  CreateTaskBody,
  MergeBody,
  MergeResult,
  PushBody,
  PushResult,
  Repository,
  Session,
  Task,
  TaskChanges,
  TaskChangesUpdated,
  TaskWorkspace,
} from "@kandev/protocol";
import { LOCAL_USERNAME } from "../auth/request-user.js";
import type { AgentEventMessage } from "../executor/agentctl-client.js";
import { isTurnActive } from "../domain/task-state.js";
import { HttpError, conflict, notFound, validationError } from "../http/errors.js";
import type { Logger } from "../logger.js";
import * as sessionsRepo from "../repos/sessions.js";
import { newId } from "../repos/util.js";
import type { LiveStore } from "../lifecycle/store.js";
import { KeyedLocks } from "./locks.js";
import { mergeTask } from "./merge.js";
import * as records from "./records.js";
import { type InspectedRepository, RepositoryPathError, commitIdentity, inspectRepository, isWorkTree, listBranches } from "./repo-ops.js";
import { runGit } from "./git.js";
import {
  type CreatedWorktree,
  WorkspaceError,
  createWorktree,
  discardWorktree,
  exists,
  readChanges,
  removeWorktree,
  saveWork,
} from "./worktree-ops.js";

/** What the service needs from the session layer (lifecycle/session-manager.ts). */
export interface SessionControl {
  createTask(body: CreateTaskBody, workspace?: { taskId: string; workspace: TaskWorkspace }, user?: string): { task: Task; session: Session };
  stopTask(taskId: string): Promise<void>;
  completeTask(taskId: string): Promise<void>;
}

export interface WorkspacePublisher {
  taskChangesUpdated(payload: TaskChangesUpdated): void;
  taskDeleted(taskId: string): void;
}

export interface WorkspaceServiceOptions {
  store: LiveStore;
  logger: Logger;
  /** KANDEV_WORKTREES_DIR: where task worktrees are made. */
  worktreesDir: string;
  publisher: WorkspacePublisher;
  sessions: SessionControl;
}

export const DELETE_SAVE_MESSAGE = "Save the task's uncommitted work before its worktree is removed (Kandev)";
export const PUSH_SAVE_MESSAGE = "Save the task's uncommitted work before pushing (Kandev)";

export class WorkspaceService {
  /** One merge, push or delete per task at a time; a second is refused, not queued. */
  private readonly taskBusy = new Map<string, string>();
  /** Git writes to one repository run one after another (worktree add/remove, merges). */
  private readonly repoLocks = new KeyedLocks();
  /** Change refreshes per task: one runs, at most one more is queued. */
  private readonly refreshing = new Map<string, { again: boolean }>();
  /** Set when the board shuts down: no refresh starts or touches the database after it. */
  private closed = false;

  constructor(private readonly options: WorkspaceServiceOptions) {}

  private get db() {
    return this.options.store.db;
  }

  async addRepository(body: CreateRepositoryBody): Promise<Repository> {
    let inspected: InspectedRepository;
    try {
      inspected = await inspectRepository(body.path);
    } catch (err) {
      if (err instanceof RepositoryPathError) throw validationError(err.problem, [{ path: "path", message: err.problem }]);
      throw err;
    }
    const existing = records.findRepositoryByPath(this.db, inspected.path);
    if (existing !== undefined) throw conflict(`${inspected.path} is already registered as repository ${existing.id} (${existing.name})`);
    const name =
      body.name ??
      inspected.path
        .split(/[\\/]/)
        .filter((p) => p.length > 0)
        .pop() ??
      inspected.path;
    return toRepository(records.insertRepository(this.db, { name, path: inspected.path, defaultBranch: inspected.defaultBranch }));
  }

  listRepositories(): Repository[] {
    return records.listRepositories(this.db).map(toRepository);
  }

  getRepository(id: string): Repository {
    return toRepository(this.repositoryRow(id));
  }

  async branches(id: string): Promise<BranchesResult> {
    const repo = this.repositoryRow(id);
    await this.requireRepositoryFolder(repo);
    return { branches: await listBranches(repo.path) };
  }

  removeRepository(id: string): void {
    this.repositoryRow(id);
    const users = records.tasksUsingRepository(this.db, id);
    if (users.length > 0)
      throw new HttpError(409, "CONFLICT", `${users.length} task(s) still use this repository; delete them first`, { task_ids: users });
    records.deleteRepository(this.db, id);
  }

  /** A task with a repository gets its worktree before its agent starts; without one it is today's task. */
  async createTask(body: CreateTaskBody, user: string = LOCAL_USERNAME): Promise<{ task: Task; session: Session }> {
    if (body.repository_id === undefined) {
      if (body.base_branch !== undefined)
        throw validationError("base_branch needs a repository_id", [{ path: "base_branch", message: "give repository_id too" }]);
      return this.options.sessions.createTask(body, undefined, user);
    }
    const repo = records.getRepository(this.db, body.repository_id);
    if (repo === undefined) throw validationError("unknown repository", [{ path: "repository_id", message: `no repository ${body.repository_id}` }]);
    if (!(await isWorkTree(repo.path))) {
      const message = `the repository's folder ${repo.path} is missing or no longer a git work tree (moved or deleted?); register it again`;
      throw validationError(message, [{ path: "repository_id", message }]);
    }
    const baseBranch = body.base_branch ?? repo.defaultBranch;
    const taskId = newId();
    let created: CreatedWorktree;
    try {
      created = await this.repoLocks.run(repo.id, () =>
        createWorktree({ repo: repo.path, baseBranch, title: body.title, taskId, worktreesDir: this.options.worktreesDir }),
      );
    } catch (err) {
      if (err instanceof WorkspaceError && err.reason === "base_branch_missing")
        throw validationError(err.message, [{ path: "base_branch", message: err.message }]);
      throw err;
    }
    const workspace: TaskWorkspace = {
      repository_id: repo.id,
      base_branch: baseBranch,
      base_commit: created.baseCommit,
      branch: created.branch,
      path: created.path,
    };
    try {
      return this.options.sessions.createTask(body, { taskId, workspace }, user);
    } catch (err) {
      // No task holds the worktree: it must not outlive the refusal (nothing was put in it yet).
      await this.repoLocks.run(repo.id, () => discardWorktree(repo.path, created));
      throw err;
    }
  }

  async changes(taskId: string): Promise<TaskChanges> {
    const { workspace } = this.taskWithWorkspace(taskId);
    await this.requireWorktree(workspace);
    return readChanges(workspace.path, workspace.base_commit, workspace.branch);
  }

  /** Lands the task; `user` is recorded as the workspace's `merged_by` and a `Merged-by:` trailer. */
  async merge(taskId: string, body: MergeBody, user: string = LOCAL_USERNAME): Promise<MergeResult> {
    const { title, workspace } = this.taskWithWorkspace(taskId);
    const repo = this.repositoryRow(workspace.repository_id);
    return this.exclusive(taskId, "merge", () =>
      this.repoLocks.run(repo.id, async () => {
        await this.requireRepositoryFolder(repo);
        await this.requireWorktree(workspace);
        const outcome = await mergeTask({
          repo: repo.path,
          worktree: workspace.path,
          branch: workspace.branch,
          baseBranch: workspace.base_branch,
          title,
          strategy: body.strategy ?? "merge",
          message: body.message,
          mergedBy: user,
          turnRunning: this.turnRunning(taskId),
        });
        if (outcome.kind === "refuse") {
          const details = outcome.reason === "conflict" ? { reason: outcome.reason, files: outcome.files } : { reason: outcome.reason };
          throw new HttpError(409, "CONFLICT", outcome.message, details);
        }
        records.setTaskWorkspace(this.db, taskId, { ...workspace, merged_by: user });
        await this.options.sessions.completeTask(taskId);
        this.refreshChanges(taskId);
        return { commit: outcome.commit, base_branch: outcome.base_branch, merged_by: user };
      }),
    );
  }

  async push(taskId: string, body: PushBody): Promise<PushResult> {
    const { workspace } = this.taskWithWorkspace(taskId);
    const repo = this.repositoryRow(workspace.repository_id);
    const remote = body.remote ?? "origin";
    return this.exclusive(taskId, "push", async () => {
      await this.requireRepositoryFolder(repo);
      const known = await runGit(["remote", "get-url", remote], { cwd: repo.path, okCodes: [2, 128] });
      if (known.code !== 0)
        throw validationError(`the repository has no remote named ${remote}`, [{ path: "remote", message: `no remote ${remote}` }]);
      await this.requireWorktree(workspace);
      if (!this.turnRunning(taskId)) {
        await this.repoLocks.run(repo.id, async () => saveWork(workspace.path, workspace.branch, await commitIdentity(repo.path), PUSH_SAVE_MESSAGE));
      }
      const ref = `refs/heads/${workspace.branch}`;
      const r = await runGit(["push", "--porcelain", remote, `${ref}:${ref}`], { cwd: repo.path, timeoutMs: 120_000, okCodes: [1, 128] });
      const output = `${r.stdout}${r.stderr}`.trim();
      if (r.code !== 0) throw new HttpError(502, "PUSH_FAILED", `git push to ${remote} failed: ${lastLines(r.stderr)}`, { output });
      return { remote, branch: workspace.branch, output };
    });
  }

  /**
   * Deletes a task: its agent stops, uncommitted work in its worktree is committed on its branch,
   * the worktree is removed (the branch stays), and the task leaves the board. Refused, with
   * everything kept, when the worktree cannot be read as git (its repository moved or vanished).
   */
  async deleteTask(taskId: string): Promise<void> {
    const row = records.getTaskWorkspace(this.db, taskId);
    if (row === undefined) throw notFound(`task ${taskId}`);
    await this.exclusive(taskId, "delete", async () => {
      const { workspace } = row;
      if (workspace === null) {
        await this.options.sessions.stopTask(taskId);
      } else {
        const repo = this.repositoryRow(workspace.repository_id);
        const folder = await exists(workspace.path);
        if (folder && !(await isWorkTree(workspace.path))) {
          throw conflict(
            `the task's worktree ${workspace.path} is no longer a git work tree (was the repository ${repo.path} moved or deleted?); nothing was deleted: put the repository back, or save the folder's files yourself and remove it`,
          );
        }
        await this.options.sessions.stopTask(taskId);
        await this.repoLocks.run(repo.id, async () => {
          if (folder) {
            await saveWork(workspace.path, workspace.branch, await commitIdentity(repo.path), DELETE_SAVE_MESSAGE);
            await removeWorktree(repo.path, workspace.path);
          } else if (await isWorkTree(repo.path)) {
            await removeWorktree(repo.path, workspace.path);
          }
        });
      }
      this.options.store.atomically(() => records.deleteTaskRow(this.db, taskId));
      this.options.publisher.taskDeleted(taskId);
    });
  }

  /**
   * A prompt must not start a turn while the task is being merged or deleted: the merge decided on
   * "no turn is running", and a delete is stopping the agent. Throws 409; anything else passes.
   */
  assertAcceptsPrompt(taskId: string): void {
    const busy = this.taskBusy.get(taskId);
    if (busy === "merge" || busy === "delete") throw conflict(`a ${busy} of this task is running; send the prompt when it is done`);
  }

  /** Board shutdown: refreshes in flight stop before their next database read. */
  close(): void {
    this.closed = true;
  }

  /** Agent events that may have changed files: a turn's end, a tool call completing. */
  onAgentEvent(sessionId: string, event: AgentEventMessage): void {
    const touches =
      event.name === "turn.ended" ||
      (event.name === "session.update" &&
        (event.payload.update.kind === "tool_call" || event.payload.update.kind === "tool_call_update") &&
        event.payload.update.status === "completed");
    if (!touches) return;
    const session = sessionsRepo.getSession(this.db, sessionId);
    if (session !== undefined) this.refreshChanges(session.taskId);
  }

  /** Reads the task's changes and pushes `task.changes.updated`; coalesces bursts (one running, one queued). */
  refreshChanges(taskId: string): void {
    if (this.closed) return;
    const running = this.refreshing.get(taskId);
    if (running !== undefined) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.refreshing.set(taskId, state);
    void (async () => {
      do {
        state.again = false;
        if (this.closed) break;
        try {
          const ws = records.getTaskWorkspace(this.db, taskId)?.workspace ?? null;
          if (ws === null || !(await exists(ws.path))) break;
          const changes = await readChanges(ws.path, ws.base_commit, ws.branch, 0);
          if (this.closed) break;
          this.options.publisher.taskChangesUpdated({ task_id: taskId, files: changes.files });
        } catch (err) {
          this.options.logger.warn("could not read a task's changes", { task: taskId, error: err instanceof Error ? err.message : String(err) });
        }
      } while (state.again);
      this.refreshing.delete(taskId);
    })();
  }

  private turnRunning(taskId: string): boolean {
    return isTurnActive(sessionsRepo.latestSessionsByTask(this.db, [taskId]).get(taskId)?.state ?? null);
  }

  private async exclusive<T>(taskId: string, what: string, fn: () => Promise<T>): Promise<T> {
    const busy = this.taskBusy.get(taskId);
    if (busy !== undefined) throw conflict(`a ${busy} of this task is already running; try again when it is done`);
    this.taskBusy.set(taskId, what);
    try {
      return await fn();
    } finally {
      this.taskBusy.delete(taskId);
    }
  }

  private repositoryRow(id: string): records.RepositoryRow {
    const row = records.getRepository(this.db, id);
    if (row === undefined) throw notFound(`repository ${id}`);
    return row;
  }

  private taskWithWorkspace(taskId: string): { title: string; workspace: TaskWorkspace } {
    const row = records.getTaskWorkspace(this.db, taskId);
    if (row === undefined) throw notFound(`task ${taskId}`);
    if (row.workspace === null) throw conflict("this task has no repository: it works in its profile's folder, which the board does not manage");
    return { title: row.title, workspace: row.workspace };
  }

  private async requireRepositoryFolder(repo: records.RepositoryRow): Promise<void> {
    if (!(await isWorkTree(repo.path))) {
      throw conflict(`the repository's folder ${repo.path} is missing or no longer a git work tree (moved or deleted?)`);
    }
  }

  private async requireWorktree(workspace: TaskWorkspace): Promise<void> {
    if (!(await exists(workspace.path))) throw conflict(`the task's worktree ${workspace.path} is missing`);
    if (!(await isWorkTree(workspace.path))) {
      throw conflict(`the task's worktree ${workspace.path} is no longer a git work tree (was its repository moved or deleted?)`);
    }
  }
}

function toRepository(row: records.RepositoryRow): Repository {
  return { id: row.id, name: row.name, path: row.path, default_branch: row.defaultBranch, created_at: row.createdAt };
}

function lastLines(text: string): string {
  return text
    .trim()
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .slice(-3)
    .join(" / ");
}
