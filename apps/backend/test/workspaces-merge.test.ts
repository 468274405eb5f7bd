import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { Repository, Task } from "@kandev/protocol";
import { commitAll, git, gitOk, isolateGlobalGitConfig, makeRepo } from "./git-fixtures.js";
import { api, createTask, eventually, getTask, startTestServer, tempDir, waitForTaskState } from "./helpers.js";

isolateGlobalGitConfig();
type Server = Awaited<ReturnType<typeof startTestServer>>;
interface ErrorBody {
  error: { code: string; message: string; details?: { reason?: string; files?: string[] } & Array<{ path: string }> };
}
interface Merged {
  commit: string;
  base_branch: string;
}

describe("landing a task: merge and push", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer({ worktreesDir: path.join(tempDir(), "worktrees") });
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  /** A registered repository and a task that wrote `file` in its worktree (uncommitted), turn ended. */
  async function taskWithEdit(file: string, text: string, repo = makeRepo()): Promise<{ repo: string; task: Task; r: Repository }> {
    const r = (await api<Repository>(base, "POST", "/api/v1/repositories", { path: repo })).body;
    const { task } = await createTask(base, `/e2e:edit-file ${file} ${text}`, { repository_id: r.id, title: `edit ${file}` });
    await waitForTaskState(base, task.id, "REVIEW");
    return { repo, task, r };
  }

  /** Everything a refused merge must leave as it was. */
  function snapshot(repo: string, task: Task) {
    return {
      main: git(repo, "rev-parse", "main"),
      branch: git(repo, "rev-parse", task.workspace!.branch),
      repoStatus: git(repo, "status", "--porcelain"),
      worktreeStatus: git(task.workspace!.path, "status", "--porcelain"),
      mergeHead: fs.existsSync(path.join(repo, ".git/MERGE_HEAD")),
    };
  }

  test("merge: uncommitted work is committed, main fast-forwards, the checked-out main moves with it and stays clean, the task is COMPLETED", async () => {
    const { repo, task } = await taskWithEdit("feature.txt", "new feature");
    const res = await api<Merged>(base, "POST", `/api/v1/tasks/${task.id}/merge`, {});
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.base_branch, "main");
    assert.equal(git(repo, "rev-parse", "main"), res.body.commit);
    assert.equal(fs.readFileSync(path.join(repo, "feature.txt"), "utf8"), "new feature\n", "the user's checkout holds the change");
    assert.equal(git(repo, "status", "--porcelain"), "", "and stays clean");
    assert.equal(git(repo, "log", "-1", "--format=%an", res.body.commit), "Repo Owner", "the repository's identity");
    assert.equal(git(task.workspace!.path, "status", "--porcelain"), "", "the worktree reads clean: its work is committed");
    const done = await waitForTaskState(base, task.id, "COMPLETED");
    assert.equal(done.session_state, "COMPLETED");
  });

  test("merge when main moved on: a merge commit with both parents, main not checked out anywhere", async () => {
    const { repo, task } = await taskWithEdit("b.txt", "task side");
    git(repo, "checkout", "-q", "--detach");
    const other = path.join(tempDir(), "scratch");
    git(repo, "worktree", "add", "-q", other, "main");
    fs.writeFileSync(path.join(other, "c.txt"), "main side\n");
    commitAll(other, "main moves");
    git(other, "checkout", "-q", "--detach");
    const mainBefore = git(repo, "rev-parse", "main");
    const res = await api<Merged>(base, "POST", `/api/v1/tasks/${task.id}/merge`, { message: "Land b" });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const parents = git(repo, "log", "-1", "--format=%P", res.body.commit).split(" ");
    assert.deepEqual(parents, [mainBefore, git(repo, "rev-parse", task.workspace!.branch)]);
    assert.equal(git(repo, "log", "-1", "--format=%s", res.body.commit), "Land b");
    assert.equal(git(repo, "show", "main:b.txt"), "task side");
    assert.equal(git(repo, "show", "main:c.txt"), "main side");
  });

  test("squash: one new commit on main with main as its only parent", async () => {
    const { repo, task } = await taskWithEdit("s.txt", "squashed");
    const mainBefore = git(repo, "rev-parse", "main");
    const res = await api<Merged>(base, "POST", `/api/v1/tasks/${task.id}/merge`, { strategy: "squash" });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(git(repo, "log", "-1", "--format=%P", res.body.commit), mainBefore);
    assert.equal(fs.readFileSync(path.join(repo, "s.txt"), "utf8"), "squashed\n");
    assert.equal(git(repo, "status", "--porcelain"), "");
  });

  test("a conflicting merge is a 409 naming the files, and nothing changed anywhere", async () => {
    const { repo, task } = await taskWithEdit("README.md", "task version");
    fs.writeFileSync(path.join(repo, "README.md"), "main version\n");
    commitAll(repo, "main edits README");
    const before = snapshot(repo, task);
    const res = await api<ErrorBody>(base, "POST", `/api/v1/tasks/${task.id}/merge`, {});
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, "CONFLICT");
    assert.deepEqual(res.body.error.details?.files, ["README.md"]);
    assert.deepEqual(snapshot(repo, task), before, "no half-merge, no MERGE_HEAD, worktree untouched");
    assert.doesNotMatch(fs.readFileSync(path.join(task.workspace!.path, "README.md"), "utf8"), /<<<<<<</);
    assert.equal((await getTask(base, task.id)).state, "REVIEW");
  });

  test("a merge is refused while a turn runs", async () => {
    const repo = makeRepo();
    const r = (await api<Repository>(base, "POST", "/api/v1/repositories", { path: repo })).body;
    const { task, session } = await createTask(base, "/e2e:hang", { repository_id: r.id });
    await waitForTaskState(base, task.id, "IN_PROGRESS");
    const before = snapshot(repo, task);
    const res = await api<ErrorBody>(base, "POST", `/api/v1/tasks/${task.id}/merge`, {});
    assert.equal(res.status, 409);
    assert.match(res.body.error.message, /a turn is running/);
    assert.deepEqual(snapshot(repo, task), before);
    await api(base, "POST", `/api/v1/sessions/${session.id}/cancel`, {});
  });

  test("a merge is refused when the base branch's checkout has uncommitted changes", async () => {
    const { repo, task } = await taskWithEdit("x.txt", "x");
    fs.appendFileSync(path.join(repo, "README.md"), "operator's own edit\n");
    const before = snapshot(repo, task);
    const res = await api<ErrorBody>(base, "POST", `/api/v1/tasks/${task.id}/merge`, {});
    assert.equal(res.status, 409);
    assert.match(res.body.error.message, /uncommitted changes/);
    assert.deepEqual(snapshot(repo, task), before);
  });

  test("a merge is refused when the base branch was deleted", async () => {
    const { repo, task } = await taskWithEdit("y.txt", "y");
    git(repo, "checkout", "-q", "-b", "other");
    git(repo, "branch", "-D", "main");
    const res = await api<ErrorBody>(base, "POST", `/api/v1/tasks/${task.id}/merge`, {});
    assert.equal(res.status, 409);
    assert.match(res.body.error.message, /no longer exists/);
    assert.equal(git(task.workspace!.path, "status", "--porcelain"), "?? y.txt", "the worktree is untouched");
  });

  test("two merges of one task at once: one lands, the other is refused", async () => {
    const { repo, task } = await taskWithEdit("z.txt", "z");
    const [a, b] = await Promise.all([
      api<Merged | ErrorBody>(base, "POST", `/api/v1/tasks/${task.id}/merge`, {}),
      api<Merged | ErrorBody>(base, "POST", `/api/v1/tasks/${task.id}/merge`, {}),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 409]);
    const refused = (a.status === 409 ? a.body : b.body) as ErrorBody;
    assert.match(refused.error.message, /already running/);
    assert.equal(git(repo, "show", "main:z.txt"), "z");
    assert.equal(git(repo, "rev-list", "--count", "main"), "2", "landed exactly once");
  });

  test("a prompt sent while the task is being merged is refused, and the merge lands", async () => {
    const { repo, task } = await taskWithEdit("p.txt", "p");
    // Holds the merge at its ref update (git's reference-transaction hook) until the test lets go.
    const entered = path.join(repo, ".git", "merge-entered");
    const release = path.join(repo, ".git", "merge-release");
    const hook = path.join(repo, ".git", "hooks", "reference-transaction");
    fs.writeFileSync(hook, `#!/bin/sh\ntouch '${entered}'\nwhile [ ! -f '${release}' ]; do sleep 0.02; done\n`, { mode: 0o755 });
    const merging = api<Merged>(base, "POST", `/api/v1/tasks/${task.id}/merge`, {});
    await eventually(() => (fs.existsSync(entered) ? true : undefined), "the merge reaches its ref update");
    const prompt = await api<ErrorBody>(base, "POST", `/api/v1/sessions/${task.session_id}/prompt`, { text: "/e2e:echo late" });
    fs.writeFileSync(release, "");
    assert.equal(prompt.status, 409);
    assert.match(prompt.body.error.message, /a merge of this task is running/);
    assert.equal((await merging).status, 200);
    fs.rmSync(hook);
    assert.equal(git(repo, "show", "main:p.txt"), "p");
    assert.equal((await getTask(base, task.id)).state, "COMPLETED");
  });

  test("two tasks on one repository work in parallel and both land", async () => {
    const repo = makeRepo();
    const r = (await api<Repository>(base, "POST", "/api/v1/repositories", { path: repo })).body;
    const [one, two] = await Promise.all([
      createTask(base, "/e2e:edit-file one.txt 1", { repository_id: r.id, title: "Same title" }),
      createTask(base, "/e2e:edit-file two.txt 2", { repository_id: r.id, title: "Same title" }),
    ]);
    assert.notEqual(one.task.workspace!.path, two.task.workspace!.path);
    assert.notEqual(one.task.workspace!.branch, two.task.workspace!.branch);
    await waitForTaskState(base, one.task.id, "REVIEW");
    await waitForTaskState(base, two.task.id, "REVIEW");
    assert.ok(!fs.existsSync(path.join(one.task.workspace!.path, "two.txt")), "neither sees the other's work");
    const [m1, m2] = await Promise.all([
      api<Merged>(base, "POST", `/api/v1/tasks/${one.task.id}/merge`, {}),
      api<Merged>(base, "POST", `/api/v1/tasks/${two.task.id}/merge`, {}),
    ]);
    assert.deepEqual([m1.status, m2.status], [200, 200]);
    assert.equal(git(repo, "show", "main:one.txt"), "1");
    assert.equal(git(repo, "show", "main:two.txt"), "2");
    assert.equal(git(repo, "status", "--porcelain"), "");
  });

  test("push sends the task branch to origin and reports git's words; an unknown remote is a 400", async () => {
    const remote = path.join(tempDir(), "origin.git");
    git(tempDir(), "init", "-q", "--bare", remote);
    const repo = makeRepo();
    git(repo, "remote", "add", "origin", remote);
    const { task } = await taskWithEdit("p.txt", "pushed", repo);
    const res = await api<{ remote: string; branch: string; output: string }>(base, "POST", `/api/v1/tasks/${task.id}/push`, {});
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.remote, "origin");
    assert.equal(res.body.branch, task.workspace!.branch);
    assert.match(res.body.output, new RegExp(task.workspace!.branch.replace(/\//g, "\\/")));
    assert.equal(git(remote, "show", `${task.workspace!.branch}:p.txt`), "pushed", "the uncommitted work was committed and pushed");
    const bad = await api<ErrorBody>(base, "POST", `/api/v1/tasks/${task.id}/push`, { remote: "upstream" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details?.[0]?.path, "remote");
    assert.ok(gitOk(repo, "rev-parse", "--verify", task.workspace!.branch));
  });
});
