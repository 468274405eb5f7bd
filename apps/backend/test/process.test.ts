import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import type { Session, Task } from "@kandev/protocol";
import {
  WsClient,
  api,
  killBackendProcesses,
  startBackendProcess,
  backendMain,
  createTask,
  descendants,
  eventually,
  getSession,
  isAlive,
  repoRoot,
  requireBuilt,
  tempDir,
  waitForTaskState,
} from "./helpers.js";

const startBackend = startBackendProcess;

async function allGone(pids: number[]): Promise<void> {
  await eventually(() => (pids.every((p) => !isAlive(p)) ? true : undefined), `processes ${pids.join(",")} to be gone`, 10_000);
}

describe("the backend as a real process", () => {
  requireBuilt([backendMain]);
  const dir = tempDir();
  const dbPath = path.join(dir, "data", "kandev.db");
  after(killBackendProcesses);

  test("a bad environment stops the start with exit code 2 naming the variable", async () => {
    const child = spawn(process.execPath, [backendMain], {
      env: { PATH: process.env.PATH ?? "", KANDEV_PORT: "abc", KANDEV_DB_PATH: dbPath },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
    assert.equal(code, 2);
    assert.match(stderr, /KANDEV_PORT/);
  });

  test("KANDEV_AUTH=off beyond loopback refuses to start (exit 2), saying why and how to turn auth on", async () => {
    const child = spawn(process.execPath, [backendMain], {
      env: { PATH: process.env.PATH ?? "", KANDEV_HOST: "0.0.0.0", KANDEV_AUTH: "off", KANDEV_PORT: "0", KANDEV_DB_PATH: dbPath },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
    assert.equal(code, 2);
    assert.match(stderr, /KANDEV_AUTH=on/);
    assert.match(stderr, /first visit/);
  });

  test("with the web app built, pages, the API and /ws share one origin", async () => {
    requireBuilt([path.join(repoRoot, "apps/web/.next/BUILD_ID")]);
    const b = await startBackend(path.join(dir, "web.db"), { KANDEV_SERVE_WEB: "true" });
    try {
      const page = await fetch(`${b.url}/`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /text\/html/);
      assert.match(page.headers.get("content-security-policy") ?? "", /default-src 'self'.*frame-ancestors 'none'/);
      assert.match(await page.text(), /<html/);
      assert.equal((await api(b.url, "GET", "/api/v1/health")).status, 200);
      const ws = await WsClient.connect(b.url, b.url);
      assert.equal((await ws.request("subscribe", { board: true })).type, "response");
      ws.close();
    } finally {
      b.child.kill("SIGTERM");
      await b.exited;
    }
  });

  test("a board whose terminal went away (stdout and stderr closed) keeps serving and still stops on SIGTERM", async () => {
    requireBuilt([path.join(repoRoot, "apps/web/.next/BUILD_ID")]);
    const b = await startBackend(path.join(dir, "no-terminal.db"), { KANDEV_SERVE_WEB: "true" });
    // The reader of both pipes goes away, as when the terminal or the supervisor that started the board dies.
    b.child.stdout!.destroy();
    b.child.stderr!.destroy();
    try {
      // A failed start logs an error line, a 404 page goes through the web app's own logging.
      const { task } = await createTask(b.url, "/e2e:crash");
      await waitForTaskState(b.url, task.id, "FAILED");
      assert.equal((await fetch(`${b.url}/no-such-page`)).status, 404);
      assert.equal((await api(b.url, "GET", "/api/v1/health")).status, 200);
    } finally {
      b.child.kill("SIGTERM");
    }
    const exit = await Promise.race([
      b.exited,
      new Promise((resolve) => setTimeout(() => resolve("still running 30 s after SIGTERM"), 30_000).unref()),
    ]);
    assert.deepEqual(exit, { code: 0, signal: null });
  });

  let firstRun: { done: Task; running: Task } | null = null;

  test("agentctl and its agent run at the board's own priority (the user's)", async () => {
    const own = os.getPriority(process.pid);
    const b = await startBackend(path.join(tempDir(), "kandev.db"));
    try {
      const { session } = await createTask(b.url, "/e2e:hang");
      await eventually(async () => ((await getSession(b.url, session.id)).state === "RUNNING" ? true : undefined), "hang turn running");
      const children = descendants(b.child.pid!);
      assert.ok(children.length >= 2, `agentctl and its agent, found ${children.length}`);
      assert.deepEqual(
        [b.child.pid!, ...children].map((pid) => os.getPriority(pid)),
        [b.child.pid!, ...children].map(() => own),
      );
    } finally {
      b.child.kill("SIGTERM");
      await b.exited;
    }
  });

  test("KANDEV_PORT=0 prints the real port; a task runs; SIGTERM stops every agentctl and agent", async () => {
    const b = await startBackend(dbPath);
    assert.match(b.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(new URL(b.url).port, "0");
    const done = await createTask(b.url, "/e2e:echo hello from a process");
    await waitForTaskState(b.url, done.task.id, "REVIEW");
    const hanging = await createTask(b.url, "/e2e:hang");
    await eventually(async () => ((await getSession(b.url, hanging.session.id)).state === "RUNNING" ? true : undefined), "hang turn running");
    const children = descendants(b.child.pid!);
    // Two sessions: one agentctl for the host, an agent per session.
    assert.ok(children.length >= 3, `expected agentctl + an agent per session, found ${children.length}`);
    b.child.kill("SIGTERM");
    const exit = await b.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, b.stderr());
    await allGone(children);
    firstRun = { done: done.task, running: hanging.task };
  });

  test('restart: a finished turn stays REVIEW; a session that was mid-turn becomes CANCELLED with "backend restarted"', async () => {
    assert.ok(firstRun, "depends on the previous test");
    const b = await startBackend(dbPath);
    try {
      const done = (await api<Task>(b.url, "GET", `/api/v1/tasks/${firstRun.done.id}`)).body;
      assert.equal(done.state, "REVIEW", "finished work is not turned into CANCELLED");
      assert.equal(done.turn_active, false);
      const doneSession = (await api<Session>(b.url, "GET", `/api/v1/sessions/${done.session_id}`)).body;
      assert.deepEqual([doneSession.state, doneSession.error], ["WAITING_FOR_INPUT", "backend restarted"]);
      const interrupted = (await api<Task>(b.url, "GET", `/api/v1/tasks/${firstRun.running.id}`)).body;
      assert.equal(interrupted.state, "CANCELLED");
      assert.equal(interrupted.turn_active, false);
      const session = (await api<Session>(b.url, "GET", `/api/v1/sessions/${interrupted.session_id}`)).body;
      assert.deepEqual([session.state, session.error], ["CANCELLED", "backend restarted"]);
      // A new prompt resumes either of them: resume.test.ts.
      // A crash (SIGKILL, no graceful stop) must not orphan agentctl either: it exits when its stdin closes.
      const hanging = await createTask(b.url, "/e2e:hang");
      await eventually(async () => ((await getSession(b.url, hanging.session.id)).state === "RUNNING" ? true : undefined), "hang turn running");
      const children = descendants(b.child.pid!);
      assert.ok(children.length >= 2);
      b.child.kill("SIGKILL");
      await b.exited;
      await allGone(children);
      const again = await startBackend(dbPath);
      try {
        const session = await getSession(again.url, hanging.session.id);
        assert.deepEqual([session.state, session.error], ["CANCELLED", "backend restarted"]);
        const task = (await api<Task>(again.url, "GET", `/api/v1/tasks/${hanging.task.id}`)).body;
        assert.equal(task.state, "CANCELLED");
      } finally {
        again.child.kill("SIGTERM");
        await again.exited;
      }
    } finally {
      if (b.child.exitCode === null && b.child.signalCode === null) b.child.kill("SIGKILL");
    }
  });
});
