import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { Repository } from "@kandev/protocol";
import { setGitBinaryForTests } from "../src/workspaces/git.js";
import { git, isolateGlobalGitConfig, makeRepo } from "./git-fixtures.js";
import { api, createTask, startTestServer, tempDir, waitForTaskState } from "./helpers.js";

isolateGlobalGitConfig();
type Server = Awaited<ReturnType<typeof startTestServer>>;
interface ErrorBody {
  error: { code: string; message: string; details?: Array<{ path: string; message: string }> & Record<string, unknown> };
}

describe("repositories: register, list, branches, remove", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("a git work tree registers with its checked-out branch as the default; a path with spaces and non-ASCII characters works", async () => {
    const repo = makeRepo({ name: "mein Projekt ünï" });
    git(repo, "checkout", "-q", "-b", "develop");
    const res = await api<Repository>(base, "POST", "/api/v1/repositories", { path: repo });
    assert.equal(res.status, 201);
    assert.equal(res.body.path, repo);
    assert.equal(res.body.name, "mein Projekt ünï");
    assert.equal(res.body.default_branch, "develop");
    assert.ok(res.body.id.length > 0 && res.body.created_at.length > 0);
    assert.deepEqual((await api<Repository>(base, "GET", `/api/v1/repositories/${res.body.id}`)).body, res.body);
    const list = await api<Repository[]>(base, "GET", "/api/v1/repositories");
    assert.ok(list.body.some((r) => r.id === res.body.id));
  });

  test("a detached HEAD falls back to main (or master) as the default branch; a name can be given", async () => {
    const repo = makeRepo();
    git(repo, "checkout", "-q", "--detach");
    const res = await api<Repository>(base, "POST", "/api/v1/repositories", { path: repo, name: "Detached" });
    assert.equal(res.status, 201);
    assert.equal(res.body.default_branch, "main");
    assert.equal(res.body.name, "Detached");
  });

  test("a path that does not exist is a 400 on path saying so", async () => {
    const res = await api<ErrorBody>(base, "POST", "/api/v1/repositories", { path: path.join(tempDir(), "nope") });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, "VALIDATION_ERROR");
    assert.equal(res.body.error.details?.[0]?.path, "path");
    assert.match(res.body.error.message, /does not exist/);
  });

  test("a folder that is not a git work tree is a 400 on path saying so", async () => {
    const res = await api<ErrorBody>(base, "POST", "/api/v1/repositories", { path: tempDir() });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.details?.[0]?.path, "path");
    assert.match(res.body.error.message, /not a git work tree/);
  });

  test("the same repository twice is a 409, also when given by a folder inside it", async () => {
    const repo = makeRepo();
    fs.mkdirSync(path.join(repo, "src"));
    assert.equal((await api(base, "POST", "/api/v1/repositories", { path: repo })).status, 201);
    assert.equal((await api(base, "POST", "/api/v1/repositories", { path: repo })).status, 409);
    assert.equal((await api(base, "POST", "/api/v1/repositories", { path: path.join(repo, "src") })).status, 409);
  });

  test("branches lists every local branch with its commit and the current one", async () => {
    const repo = makeRepo();
    git(repo, "branch", "feature/x");
    const { body: r } = await api<Repository>(base, "POST", "/api/v1/repositories", { path: repo });
    const res = await api<{ branches: Array<{ name: string; commit: string; current: boolean }> }>(
      base,
      "GET",
      `/api/v1/repositories/${r.id}/branches`,
    );
    assert.equal(res.status, 200);
    const head = git(repo, "rev-parse", "HEAD");
    assert.deepEqual(res.body.branches, [
      { name: "feature/x", commit: head, current: false },
      { name: "main", commit: head, current: true },
    ]);
    assert.equal((await api(base, "GET", "/api/v1/repositories/unknown/branches")).status, 404);
  });

  test("a repository is removed with 204, but refused with 409 while a task uses it", async () => {
    const repo = makeRepo();
    const { body: r } = await api<Repository>(base, "POST", "/api/v1/repositories", { path: repo });
    const { task } = await createTask(base, "/e2e:echo hi", { repository_id: r.id });
    await waitForTaskState(base, task.id, "REVIEW");
    const refused = await api<ErrorBody>(base, "DELETE", `/api/v1/repositories/${r.id}`);
    assert.equal(refused.status, 409);
    assert.match(refused.body.error.message, /still use/);
    assert.equal((await api(base, "DELETE", `/api/v1/tasks/${task.id}`)).status, 204);
    assert.equal((await api(base, "DELETE", `/api/v1/repositories/${r.id}`)).status, 204);
    assert.equal((await api(base, "GET", `/api/v1/repositories/${r.id}`)).status, 404);
    assert.ok(fs.existsSync(path.join(repo, ".git")), "removing the registration leaves the repository alone");
  });

  test("git missing on the machine is a clear 503 GIT_NOT_FOUND", async () => {
    const restore = setGitBinaryForTests(path.join(tempDir(), "no-git-here"));
    try {
      const res = await api<ErrorBody>(base, "POST", "/api/v1/repositories", { path: makeRepo() });
      assert.equal(res.status, 503);
      assert.equal(res.body.error.code, "GIT_NOT_FOUND");
      assert.match(res.body.error.message, /git is not installed/);
    } finally {
      restore();
    }
  });
});
