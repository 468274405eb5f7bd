import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { AgentActionParams, Repository, Task, TaskChanges } from "@kandev/protocol";
import { silentLogger } from "../src/logger.js";
import { createWorktree, readChanges } from "../src/workspaces/worktree-ops.js";
import { commitAll, git, gitOk, isolateGlobalGitConfig, makeRepo } from "./git-fixtures.js";
import { WsClient, api, createTask, eventually, getMessages, startTestServer, tempDir, waitForTaskState } from "./helpers.js";

isolateGlobalGitConfig();
type Server = Awaited<ReturnType<typeof startTestServer>>;
interface ErrorBody {
  error: { code: string; message: string; details?: Array<{ path: string; message: string }> };
}

describe("a task on a repository works in its own worktree", () => {
  let server: Server;
  let base: string;
  let worktreesDir: string;
  const configured = new Map<string, AgentActionParams<"agent.configure">>();
  const sessionNewCwd = new Map<string, unknown>();
  before(async () => {
    worktreesDir = path.join(tempDir(), "work trees ü");
    server = await startTestServer({
      worktreesDir,
      onConfigure: (sid, params) => configured.set(sid, params),
      onAgentRequest: (sid, action, params) => {
        if (action === "agent.session.new") sessionNewCwd.set(sid, (params as { cwd?: string }).cwd);
      },
    });
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  async function register(repo: string): Promise<Repository> {
    const res = await api<Repository>(base, "POST", "/api/v1/repositories", { path: repo });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  test("the worktree is made on kandev/<slug>-<id> from the base commit, and the agent edits there, not in the repository", async () => {
    const repo = makeRepo({ name: "app with space" });
    const r = await register(repo);
    const head = git(repo, "rev-parse", "HEAD");
    const { task, session } = await createTask(base, "/e2e:edit-file notes/todo.md first\\nsecond", {
      title: "Write the notes!",
      repository_id: r.id,
    });
    const ws = task.workspace!;
    assert.equal(ws.repository_id, r.id);
    assert.equal(ws.base_branch, "main");
    assert.equal(ws.base_commit, head);
    assert.equal(ws.branch, `kandev/write-the-notes-${task.id.replace(/-/g, "").slice(0, 8)}`);
    assert.equal(path.dirname(ws.path), worktreesDir);
    await waitForTaskState(base, task.id, "REVIEW");
    assert.equal(configured.get(session.id)?.agent.cwd, ws.path, "the agent process runs in the worktree");
    assert.equal(sessionNewCwd.get(session.id), ws.path, "ACP session/new gets the worktree as cwd");
    assert.equal(fs.readFileSync(path.join(ws.path, "notes/todo.md"), "utf8"), "first\nsecond\n");
    assert.ok(!fs.existsSync(path.join(repo, "notes")), "the repository's own checkout is untouched");
    assert.equal(git(ws.path, "rev-parse", "--abbrev-ref", "HEAD"), ws.branch);
    const listed = (await api<Task[]>(base, "GET", "/api/v1/tasks")).body.find((t) => t.id === task.id);
    assert.deepEqual(listed?.workspace, ws);
  });

  test("changes count committed, uncommitted and untracked work against the base commit; ignored files stay out", async () => {
    const repo = makeRepo();
    fs.writeFileSync(path.join(repo, "old name.txt"), "keep me\n".repeat(5));
    fs.writeFileSync(path.join(repo, "gone.txt"), "bye\n");
    commitAll(repo, "more files");
    const r = await register(repo);
    const { task } = await createTask(base, "/e2e:echo hi", { repository_id: r.id });
    await waitForTaskState(base, task.id, "REVIEW");
    const wt = task.workspace!.path;
    fs.writeFileSync(path.join(wt, "committed.txt"), "c\n");
    commitAll(wt, "agent commit");
    fs.appendFileSync(path.join(wt, "README.md"), "line three\n");
    fs.renameSync(path.join(wt, "old name.txt"), path.join(wt, "nëw name.txt"));
    fs.rmSync(path.join(wt, "gone.txt"));
    fs.writeFileSync(path.join(wt, "untracked.txt"), "u1\nu2\n");
    fs.writeFileSync(path.join(wt, "debug.log"), "ignored\n");
    fs.writeFileSync(path.join(wt, "logo.bin"), Buffer.from([0, 1, 2, 0, 255]));
    const statusBefore = git(wt, "status", "--porcelain");
    const res = await api<TaskChanges>(base, "GET", `/api/v1/tasks/${task.id}/changes`);
    assert.equal(res.status, 200);
    assert.equal(res.body.base_commit, task.workspace!.base_commit);
    assert.equal(res.body.branch, task.workspace!.branch);
    assert.equal(res.body.head_commit, git(wt, "rev-parse", "HEAD"));
    assert.equal(res.body.truncated, false);
    assert.deepEqual(
      res.body.files.map((f) => [f.path, f.status, f.additions, f.deletions, f.binary, f.old_path]),
      [
        ["README.md", "modified", 1, 0, false, undefined],
        ["committed.txt", "added", 1, 0, false, undefined],
        ["gone.txt", "deleted", 0, 1, false, undefined],
        ["logo.bin", "added", 0, 0, true, undefined],
        ["nëw name.txt", "renamed", 0, 0, false, "old name.txt"],
        ["untracked.txt", "added", 2, 0, false, undefined],
      ],
    );
    assert.match(res.body.diff, /^diff --git a\/README.md b\/README.md/m);
    assert.match(res.body.diff, /\+line three/);
    assert.doesNotMatch(res.body.diff, /debug\.log/);
    assert.equal(git(wt, "status", "--porcelain"), statusBefore, "reading changes touches neither the worktree nor its index");
    const capped = await readChanges(wt, task.workspace!.base_commit, task.workspace!.branch, 64);
    assert.equal(capped.truncated, true);
    assert.ok(Buffer.byteLength(capped.diff) <= 64);
    assert.equal(capped.files.length, 6, "the file list is whole even when the diff is cut");
  });

  test("task.changes.updated reaches the task's subscribers when an edit tool call completes and when the turn ends", async () => {
    const r = await register(makeRepo());
    const ws = await WsClient.connect(base);
    try {
      const { task, session } = await createTask(base, "/e2e:plain wait", { repository_id: r.id });
      await ws.request("subscribe", { task_id: task.id });
      await waitForTaskState(base, task.id, "REVIEW");
      const seen = ws.frames.length;
      assert.equal(
        (await api(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "/e2e:edit-file src/a.ts export const a = 1;" })).status,
        202,
      );
      const frame = await ws.waitFor(
        (f) => ws.frames.indexOf(f) >= seen && f.action === "task.changes.updated" && (f.payload as { files: unknown[] }).files.length > 0,
        "task.changes.updated with the edit",
      );
      assert.deepEqual(frame.payload, {
        task_id: task.id,
        files: [{ path: "src/a.ts", status: "added", additions: 1, deletions: 0, binary: false }],
      });
    } finally {
      ws.close();
    }
  });

  test("an unknown base branch or repository is a 400 on that field, and no worktree is left", async () => {
    const repo = makeRepo();
    const r = await register(repo);
    const bad = await api<ErrorBody>(base, "POST", "/api/v1/tasks", { title: "t", prompt: "p", repository_id: r.id, base_branch: "nope" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details?.[0]?.path, "base_branch");
    const unknown = await api<ErrorBody>(base, "POST", "/api/v1/tasks", { title: "t", prompt: "p", repository_id: "nope" });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.details?.[0]?.path, "repository_id");
    const profile = await api<ErrorBody>(base, "POST", "/api/v1/tasks", { title: "t", prompt: "p", repository_id: r.id, agent_profile_id: "nope" });
    assert.equal(profile.status, 400);
    assert.equal(git(repo, "worktree", "list").split("\n").length, 1, "a refused task leaves no worktree");
    assert.equal(git(repo, "branch", "--list", "kandev/*"), "", "nor a branch");
  });

  test("a branch name already taken gets -2", async () => {
    const repo = makeRepo();
    const taskId = "abcdef12-0000-4000-8000-000000000000";
    git(repo, "branch", "kandev/fix-it-abcdef12");
    const created = await createWorktree({ repo, baseBranch: "main", title: "Fix it", taskId, worktreesDir: path.join(tempDir(), "wt") });
    assert.equal(created.branch, "kandev/fix-it-abcdef12-2");
    assert.ok(fs.existsSync(path.join(created.path, "README.md")));
  });

  test("a worktree that fails while being made (a failing checkout hook, as a full disk would) is rolled back whole", async () => {
    const repo = makeRepo();
    const hook = path.join(repo, ".git/hooks/post-checkout");
    fs.writeFileSync(hook, "#!/bin/sh\necho 'No space left on device' >&2\nexit 1\n", { mode: 0o755 });
    const r = await register(repo);
    const before = (await api<Task[]>(base, "GET", "/api/v1/tasks")).body.length;
    const res = await api<ErrorBody>(base, "POST", "/api/v1/tasks", { title: "Full disk", prompt: "p", repository_id: r.id });
    assert.equal(res.status, 507);
    assert.equal(res.body.error.code, "DISK_FULL");
    assert.equal(git(repo, "worktree", "list").split("\n").length, 1);
    assert.equal(git(repo, "branch", "--list", "kandev/*"), "");
    assert.deepEqual(
      fs.readdirSync(worktreesDir).filter((n) => n.startsWith("full-disk")),
      [],
    );
    assert.equal((await api<Task[]>(base, "GET", "/api/v1/tasks")).body.length, before, "no task was created");
  });

  test("a task without a repository keeps today's behaviour and is deleted with 204 (its agent stopped)", async () => {
    const { task } = await createTask(base, "/e2e:echo plain");
    assert.equal(task.workspace, null);
    await waitForTaskState(base, task.id, "REVIEW");
    const changes = await api<ErrorBody>(base, "GET", `/api/v1/tasks/${task.id}/changes`);
    assert.equal(changes.status, 409);
    assert.equal((await api(base, "DELETE", `/api/v1/tasks/${task.id}`)).status, 204);
    assert.equal((await api(base, "GET", `/api/v1/tasks/${task.id}`)).status, 404);
    assert.equal((await api(base, "DELETE", `/api/v1/tasks/${task.id}`)).status, 404);
  });

  test("deleting a task commits its uncommitted work on its branch, removes the worktree and keeps the branch", async () => {
    const repo = makeRepo({ identity: false });
    const r = await register(repo);
    const board = await WsClient.connect(base);
    try {
      await board.request("subscribe", { board: true });
      const { task } = await createTask(base, "/e2e:edit-file draft.md unsaved work", { repository_id: r.id });
      await waitForTaskState(base, task.id, "REVIEW");
      const ws = task.workspace!;
      assert.equal((await api(base, "DELETE", `/api/v1/tasks/${task.id}`)).status, 204);
      assert.ok(!fs.existsSync(ws.path), "the worktree folder is gone");
      assert.equal(git(repo, "show", `${ws.branch}:draft.md`), "unsaved work", "the work is on the branch");
      assert.equal(
        git(repo, "log", "-1", "--format=%an <%ae>", ws.branch),
        "Kandev <kandev@localhost>",
        "a repository with no identity gets the board's",
      );
      assert.equal(git(repo, "worktree", "list").split("\n").length, 1);
      await board.waitFor((f) => f.action === "task.deleted" && (f.payload as { task_id: string }).task_id === task.id, "task.deleted");
    } finally {
      board.close();
    }
  });

  test("a repository moved after registration: a new task is refused on repository_id; deleting its task is refused and keeps the files", async () => {
    const repo = makeRepo();
    const r = await register(repo);
    const { task } = await createTask(base, "/e2e:edit-file keep.md precious", { repository_id: r.id });
    await waitForTaskState(base, task.id, "REVIEW");
    fs.renameSync(repo, `${repo}-moved`);
    try {
      const res = await api<ErrorBody>(base, "POST", "/api/v1/tasks", { title: "t", prompt: "p", repository_id: r.id });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.details?.[0]?.path, "repository_id");
      assert.match(res.body.error.message, /moved or deleted/);
      const del = await api<ErrorBody>(base, "DELETE", `/api/v1/tasks/${task.id}`);
      assert.equal(del.status, 409);
      assert.match(del.body.error.message, /nothing was deleted/);
      assert.equal(fs.readFileSync(path.join(task.workspace!.path, "keep.md"), "utf8"), "precious\n");
      assert.equal((await api(base, "GET", `/api/v1/tasks/${task.id}/changes`)).status, 409);
    } finally {
      fs.renameSync(`${repo}-moved`, repo);
    }
    assert.equal((await api(base, "DELETE", `/api/v1/tasks/${task.id}`)).status, 204, "with the repository back, the delete goes through");
    assert.ok(gitOk(repo, "rev-parse", "--verify", task.workspace!.branch));
  });
});

describe("worktrees survive a board restart", () => {
  test("the worktree is kept; a vanished one is reported on its task; a folder no task owns is reported, not deleted", async () => {
    const dir = tempDir();
    const worktreesDir = path.join(dir, "worktrees");
    const first = await startTestServer({ dir, worktreesDir });
    const repo = makeRepo();
    const r = (await api<Repository>(first.url, "POST", "/api/v1/repositories", { path: repo })).body;
    const kept = await createTask(first.url, "/e2e:edit-file a.txt A", { repository_id: r.id });
    const lost = await createTask(first.url, "/e2e:echo x", { repository_id: r.id });
    await waitForTaskState(first.url, kept.task.id, "REVIEW");
    await waitForTaskState(first.url, lost.task.id, "REVIEW");
    await first.close();
    fs.rmSync(lost.task.workspace!.path, { recursive: true, force: true });
    const orphan = path.join(worktreesDir, "left-behind");
    fs.mkdirSync(orphan);
    fs.writeFileSync(path.join(orphan, "work.txt"), "someone's work\n");
    const warnings: Array<{ msg: string; fields: unknown }> = [];
    const logger = { ...silentLogger, warn: (msg: string, fields?: unknown) => void warnings.push({ msg, fields }) };
    const second = await startTestServer({ dir, worktreesDir, logger });
    try {
      assert.equal(fs.readFileSync(path.join(kept.task.workspace!.path, "a.txt"), "utf8"), "A\n", "a restart keeps the worktree");
      assert.ok(fs.existsSync(path.join(orphan, "work.txt")), "a folder with no task is left in place");
      assert.ok(warnings.some((w) => /belongs to no task/.test(w.msg)));
      assert.ok(warnings.some((w) => /worktree folder is missing/.test(w.msg)));
      const messages = await getMessages(second.url, lost.session.id);
      assert.ok(
        messages.some((m) => m.type === "error" && /worktree .* is missing/.test(m.content)),
        "the task says its worktree vanished",
      );
      // A resumed session works in the same worktree.
      assert.equal((await api(second.url, "POST", `/api/v1/sessions/${kept.session.id}/prompt`, { text: "/e2e:edit-file b.txt B" })).status, 202);
      await eventually(() => (fs.existsSync(path.join(kept.task.workspace!.path, "b.txt")) ? true : undefined), "the resumed agent's edit");
      const refused = await api(second.url, "POST", `/api/v1/sessions/${lost.session.id}/prompt`, { text: "hello" });
      assert.equal(refused.status, 409, "a session whose worktree vanished is not resumed into nowhere");
    } finally {
      await second.close();
    }
  });
});
