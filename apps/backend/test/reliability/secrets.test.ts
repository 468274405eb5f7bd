// Secrets stay secret (docs/RELIABILITY.md §5): what an agent leaks is redacted wherever it is kept
// or pushed, an agent's environment (and agentctl's) holds no setting or credential of the board,
// the database and the data folder are the owner's alone, and one /ws socket cannot hold
// unbounded subscriptions. Real processes throughout: the board, agentctl and the agents.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Envelope, Message, Repository, Session, SessionLogs } from "@kandev/protocol";
import { isolateGlobalGitConfig, makeRepo } from "../git-fixtures.js";
import {
  WsClient,
  api,
  createTask,
  descendants,
  eventually,
  getMessages,
  getSession,
  killBackendProcesses,
  startBackendProcess,
  startTestServer,
  tempDir,
  waitForTaskState,
} from "../helpers.js";

isolateGlobalGitConfig();

type Server = Awaited<ReturnType<typeof startTestServer>>;

const KEY = "sk-test-leaked-0123456789abcdef";
const REDACTED = "[redacted]";

async function addProfile(base: string, body: Record<string, unknown>): Promise<void> {
  const res = await api(base, "POST", "/api/v1/agent-profiles", { name: String(body.id), ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
}

async function mockCommand(base: string): Promise<string[]> {
  const profiles = await api<Array<{ id: string; command: string[] }>>(base, "GET", "/api/v1/agent-profiles");
  return profiles.body.find((p) => p.id === "mock")!.command;
}

/** What the database file holds for a session: its error, its turns' errors, its messages. */
function storedRows(dbPath: string, sessionId: string): string {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const rows = [
      ...db.prepare("SELECT error FROM sessions WHERE id = ?").all(sessionId),
      ...db.prepare("SELECT error FROM turns WHERE session_id = ?").all(sessionId),
      ...db.prepare("SELECT content, metadata FROM messages WHERE session_id = ?").all(sessionId),
    ];
    return JSON.stringify(rows);
  } finally {
    db.close();
  }
}

async function logText(base: string, sessionId: string): Promise<string> {
  const res = await api<SessionLogs>(base, "GET", `/api/v1/sessions/${sessionId}/logs`);
  assert.equal(res.status, 200);
  return res.body.lines.map((l) => l.text).join("\n");
}

describe("an agent whose stderr and errors carry its profile's API key", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer({ initializeTimeoutMs: 5000 });
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("dying at start with the key on stderr: the session error, the error message and its metadata, the log and the stored rows hold [redacted], never the key", async () => {
    const script = "process.stderr.write('fatal: upstream refused ' + process.env.LEAKY_API_KEY + '\\n'); process.exit(7);";
    await addProfile(base, { id: "leaky-start", command: [process.execPath, "-e", script], env: { LEAKY_API_KEY: KEY } });
    const { task, session } = await createTask(base, "hello", { agent_profile_id: "leaky-start" });
    await waitForTaskState(base, task.id, "FAILED");

    const failed: Session = await getSession(base, session.id);
    assert.equal(failed.state, "FAILED");
    // The reason quotes the agent's last stderr line: that is where the key was.
    assert.match(failed.error ?? "", /the agent exited before answering ACP initialize \(code 7\): fatal: upstream refused \[redacted\]$/);
    const errors = (await getMessages(base, session.id)).filter((m: Message) => m.type === "error");
    assert.equal(errors.length, 1);
    const error = errors[0]!;
    assert.ok(error.content.includes(`upstream refused ${REDACTED}`), error.content);
    assert.equal((error.metadata.failure as { params: { last: string } }).params.last, `fatal: upstream refused ${REDACTED}`);
    assert.ok(String(error.metadata.stderr_tail).includes(REDACTED));
    const log = await logText(base, session.id);
    assert.ok(log.includes(`upstream refused ${REDACTED}`), log);

    const stored = storedRows(server.dbPath, session.id);
    assert.ok(stored.includes(REDACTED), "the stored rows carry the redacted words");
    for (const [where, text] of [
      ["session", JSON.stringify(failed)],
      ["messages", JSON.stringify(errors)],
      ["log", log],
      ["database rows", stored],
    ] as const) {
      assert.ok(!text.includes(KEY), `the key is not in the ${where}`);
    }
  });

  test("a turn failed with the key in its ACP error, then an exit with the key on stderr: the turn's error message, its metadata and the stored turn error are redacted", async () => {
    await addProfile(base, { id: "leaky-turn", command: await mockCommand(base), env: { LEAKY_API_KEY: KEY } });
    const { task, session } = await createTask(base, "/e2e:leak-key LEAKY_API_KEY", { agent_profile_id: "leaky-turn" });
    await waitForTaskState(base, task.id, "FAILED");
    // The turn's error message (agentctl's turn.ended error is the agent's own ACP error text) is
    // completed by the exit that follows: one message for the turn.
    const error = await eventually(async () => {
      const errors = (await getMessages(base, session.id)).filter((m: Message) => m.type === "error");
      return errors.length === 1 && errors[0]!.metadata.stderr_tail !== undefined ? errors[0] : undefined;
    }, "the turn's error message completed by the exit");
    assert.match(error.content, /the agent exited unexpectedly \(code 5\)/);
    assert.ok(String(error.metadata.stderr_tail).includes(`key ${REDACTED} refused`), String(error.metadata.stderr_tail));

    const stored = storedRows(server.dbPath, session.id);
    assert.ok(stored.includes(`the upstream refused the key ${REDACTED}`), `the turn's error as stored: ${stored}`);
    const log = await logText(base, session.id);
    assert.ok(log.includes(`authenticating with ${REDACTED}`), log);
    const session2 = await getSession(base, session.id);
    for (const [where, text] of [
      ["session", JSON.stringify(session2)],
      ["messages", JSON.stringify(await getMessages(base, session.id))],
      ["log", log],
      ["database rows", stored],
    ] as const) {
      assert.ok(!text.includes(KEY), `the key is not in the ${where}`);
    }
  });
});

describe("an agent's environment", () => {
  after(killBackendProcesses);

  test("an agent started by a board whose env has KANDEV_* and credential-looking variables has none of them, nor has agentctl; its profile's env reaches it", async () => {
    const dir = tempDir();
    const boardToken = `ghp_${"b".repeat(36)}`;
    const b = await startBackendProcess(path.join(dir, "kandev.db"), {
      KANDEV_SOMETHING: "x",
      KANDEV_ELICITATION_ANSWER_TIMEOUT: "50m",
      MY_SERVICE_TOKEN: "board-service-token-123456",
      INNOCENT_LOOKING: boardToken,
      HOME: dir,
    });
    try {
      const base = b.url;
      await addProfile(base, {
        id: "env-check",
        command: await mockCommand(base),
        env: { PROFILE_API_KEY: "sk-profile-key-0123456789abcdef", PROFILE_SETTING: "on" },
      });
      const names = [
        "KANDEV_SOMETHING",
        "KANDEV_ELICITATION_ANSWER_TIMEOUT",
        "KANDEV_DB_PATH",
        "KANDEV_PORT",
        "MY_SERVICE_TOKEN",
        "INNOCENT_LOOKING",
      ];
      const asked = ["HOME", "PATH", "PROFILE_API_KEY", "PROFILE_SETTING", ...names];
      const { task, session } = await createTask(base, `/e2e:env ${asked.join(" ")}`, { agent_profile_id: "env-check" });
      await waitForTaskState(base, task.id, "REVIEW");
      const reply = (await getMessages(base, session.id)).find((m) => m.type === "text" && m.author_type === "agent")!.content;
      // The agent's own view, and its parent's (agentctl's) environ as the agent can read it.
      assert.equal(reply, "self: HOME PATH PROFILE_API_KEY PROFILE_SETTING\nparent: HOME PATH");

      // And from outside: the processes' environ files hold no value of the board's.
      const agentctl = descendants(b.child.pid!).find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("agentctl"))!;
      const agentctlEnv = fs.readFileSync(`/proc/${agentctl}/environ`, "utf8");
      for (const leaked of ["KANDEV_", "board-service-token-123456", boardToken]) {
        assert.ok(!agentctlEnv.includes(leaked), `agentctl's environment has no ${leaked}`);
      }
      assert.ok(agentctlEnv.includes(`HOME=${dir}`), "what an agent needs to run still reaches agentctl");
    } finally {
      b.child.kill("SIGTERM");
      await b.exited;
    }
  });
});

describe("the board's files", () => {
  let server: Server | undefined;
  after(async () => {
    await server?.close();
  });

  test("the data folders the board creates are 0700 and the database with its -wal and -shm 0600; a folder the user made keeps its mode", async () => {
    const dir = tempDir();
    const userMade = path.join(dir, "user-made");
    fs.mkdirSync(userMade, { mode: 0o755 });
    fs.chmodSync(userMade, 0o755);
    const dbPath = path.join(userMade, "data", "nested", "kandev.db");
    server = await startTestServer({ dir, dbPath });
    const mode = (p: string) => fs.statSync(p).mode & 0o777;
    assert.equal(mode(userMade), 0o755, "the user's folder is left as it was");
    assert.equal(mode(path.join(userMade, "data")), 0o700);
    assert.equal(mode(path.join(userMade, "data", "nested")), 0o700);
    for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) assert.equal(mode(file), 0o600, file);

    // The worktrees folder is made with the first task on a repository.
    const repo = makeRepo({ parent: dir });
    const r = await api<Repository>(server.url, "POST", "/api/v1/repositories", { path: repo });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const { task } = await createTask(server.url, "/e2e:echo hi", { repository_id: r.body.id });
    await waitForTaskState(server.url, task.id, "REVIEW");
    assert.equal(mode(path.join(userMade, "data", "nested", "worktrees")), 0o700);
  });

  test("a database file an earlier run left readable by others is made the owner's alone", async () => {
    await server?.close();
    server = undefined;
    const dir = tempDir();
    const dbPath = path.join(dir, "kandev.db");
    fs.writeFileSync(dbPath, "", { mode: 0o644 });
    fs.chmodSync(dbPath, 0o644);
    server = await startTestServer({ dir, dbPath });
    assert.equal(fs.statSync(dbPath).mode & 0o777, 0o600);
  });
});

describe("/ws subscriptions per socket", () => {
  let server: Server;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  test("past 1,000 subscriptions a subscribe is answered LIMIT_EXCEEDED and changes nothing; the socket stays usable", async () => {
    const ws = await WsClient.connect(server.url);
    try {
      for (let i = 0; i < 1000; i++) {
        const ok = await ws.request("subscribe", { task_id: `task-${i}` });
        assert.equal(ok.type, "response", JSON.stringify(ok));
      }
      const refused: Envelope = await ws.request("subscribe", { board: true });
      assert.equal(refused.type, "error");
      const payload = refused.payload as { code: string; message: string; details: { limit: number } };
      assert.equal(payload.code, "LIMIT_EXCEEDED");
      assert.match(payload.message, /1000 subscriptions/);
      assert.deepEqual(payload.details, { limit: 1000 });
      assert.equal((await ws.request("subscribe", { task_id: "task-7" })).type, "response", "a topic already held is not refused");

      // Still usable: free one, take the board, and its updates arrive.
      assert.equal((await ws.request("unsubscribe", { task_id: "task-0" })).type, "response");
      assert.equal((await ws.request("subscribe", { board: true })).type, "response");
      const { task } = await createTask(server.url, "/e2e:echo hi");
      await ws.waitFor((f) => f.action === "task.updated" && (f.payload as { task: { id: string } }).task.id === task.id, "the board's update");
    } finally {
      ws.close();
    }
  });
});
