// Starting real agents that cannot start: a missing or non-executable command, an agent that exits
// at once, one that never answers initialize. Each fails its session with words an operator can act
// on (the command, the exit code, the agent's last stderr line, how to install it), never a stack
// trace, and leaves nothing running. Also: the agent's stderr as the operator's log, redacted.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Envelope, Message, SessionLogNotification, SessionLogs, Task } from "@kandev/protocol";
import {
  WsClient,
  api,
  createTask,
  agentPids,
  newAgentPid,
  eventually,
  getMessages,
  getSession,
  isGoneOrZombie,
  startTestServer,
  tempDir,
  waitForTaskState,
} from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;

async function addProfile(base: string, body: Record<string, unknown>): Promise<void> {
  const res = await api(base, "POST", "/api/v1/agent-profiles", { name: String(body.id), ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
}

/** The one error message of a failed session; it must read as words, not a stack trace. */
async function onlyError(base: string, sessionId: string): Promise<Message> {
  const errors = (await getMessages(base, sessionId)).filter((m) => m.type === "error");
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.doesNotMatch(errors[0]!.content, /^\s+at .+\(.+:\d+:\d+\)$/m, "no stack trace");
  return errors[0]!;
}

/** Waits until these agents (and everything they started) are gone and agentctl runs no other new one. */
async function nothingLeft(server: Server, pids: number[], before: readonly number[]): Promise<void> {
  const fresh = () => agentPids(server).filter((p) => !before.includes(p) && !isGoneOrZombie(p));
  await eventually(() => (pids.every((p) => isGoneOrZombie(p)) && fresh().length === 0 ? true : undefined), `processes ${pids.join(",")} gone`);
}

describe("agents that cannot start", () => {
  let server: Server;
  let base: string;
  const dir = tempDir();
  const emptyPath = fs.mkdtempSync(path.join(dir, "empty-path-"));
  before(async () => {
    server = await startTestServer({ dir, initializeTimeoutMs: 1500 });
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("a command that is not installed fails the session at once, naming it and how to install it; nothing is spawned", async () => {
    await addProfile(base, { id: "claude-missing", command: ["claude-agent-acp"], env: { PATH: emptyPath } });
    const before = server.childPids().length;
    const { task, session } = await createTask(base, "hello", { agent_profile_id: "claude-missing" });
    // The check runs before anything is spawned, so the answer already says FAILED.
    assert.deepEqual([session.state, task.state], ["FAILED", "FAILED"]);
    assert.equal(server.childPids().length, before, "no agentctl was started");
    const expected =
      /^the agent command "claude-agent-acp" was not found on PATH\. Install it: npm install -g @agentclientprotocol\/claude-agent-acp/;
    assert.match((await getSession(base, session.id)).error ?? "", expected);
    assert.match((await onlyError(base, session.id)).content, expected);
    const again = await api(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "hi" });
    assert.equal(again.status, 409, "a failed session takes no prompt");
  });

  test("a file that is not executable fails the session and says so", async () => {
    const file = path.join(dir, "not-executable-agent");
    fs.writeFileSync(file, "#!/bin/sh\n", { mode: 0o644 });
    await addProfile(base, { id: "not-exec", command: [file] });
    const { task, session } = await createTask(base, "hello", { agent_profile_id: "not-exec" });
    assert.equal(task.state, "FAILED");
    const error = await onlyError(base, session.id);
    assert.match(error.content, new RegExp(`^the agent command "${file}" is not executable\\. Check the profile's command`));
    assert.deepEqual(error.metadata.failure, { code: "command_not_executable", params: { command: file } }, "the code a client words itself");
  });

  test("an agent that exits at once: FAILED with its exit code and stderr; its log has the line; nothing left running", async () => {
    await addProfile(base, { id: "exits-7", command: [process.execPath, "-e", "process.stderr.write('no api key\\n'); process.exit(7)"] });
    const before = agentPids(server);
    const { task, session } = await createTask(base, "hello", { agent_profile_id: "exits-7" });
    await waitForTaskState(base, task.id, "FAILED");
    const s = await getSession(base, session.id);
    assert.equal(s.state, "FAILED");
    assert.match(s.error ?? "", /^the agent exited (while starting|before answering ACP initialize) \(code 7\): no api key$/);
    const error = await onlyError(base, session.id);
    assert.match(error.content, /\(code 7\)/);
    assert.match(error.content, /no api key/);
    assert.match(String(error.metadata.stderr_tail), /no api key/);
    const failure = error.metadata.failure as { code: string; params: Record<string, string> };
    assert.equal(failure.code, "exited_during_start");
    assert.deepEqual([failure.params.exit_code, failure.params.last], ["7", "no api key"]);
    const logs = await api<SessionLogs>(base, "GET", `/api/v1/sessions/${session.id}/logs`);
    assert.deepEqual(
      logs.body.lines.map((l) => l.text),
      ["no api key"],
    );
    await nothingLeft(server, [], before);
    assert.equal(server.childPids().length, 1, "this host's agentctl runs on for other sessions");
  });

  test("an agent that closes its stdin first and exits a moment later: its exit code and stderr, not agentctl's EPIPE", async () => {
    // agentctl's initialize meets a closed pipe (EPIPE) before the exit lands; the operator must
    // still read the agent's own words (found as a 1-in-2 flake of the test above).
    const script = "process.stdin.destroy(); process.stderr.write('no api key\\n'); setTimeout(() => process.exit(7), 300)";
    await addProfile(base, { id: "closes-stdin", command: [process.execPath, "-e", script] });
    const { task, session } = await createTask(base, "hello", { agent_profile_id: "closes-stdin" });
    await waitForTaskState(base, task.id, "FAILED");
    const s = await getSession(base, session.id);
    assert.match(s.error ?? "", /^the agent exited (while starting|before answering ACP initialize) \(code 7\): no api key$/);
    assert.doesNotMatch(s.error ?? "", /EPIPE|agentctl/);
  });

  test("an agent that never answers initialize: FAILED saying initialize timed out, with its stderr; the agent stopped", async () => {
    const script = "process.stderr.write('waiting for a login that never comes\\n'); setInterval(() => {}, 1000)";
    await addProfile(base, { id: "silent", command: [process.execPath, "-e", script] });
    const before = agentPids(server);
    const { task, session } = await createTask(base, "hello", { agent_profile_id: "silent" });
    // The agent is agentctl's child: remember it to prove it is stopped too.
    const agent = await newAgentPid(server, before);
    await waitForTaskState(base, task.id, "FAILED");
    assert.match((await getSession(base, session.id)).error ?? "", /^the agent did not answer ACP initialize within 1500 ms/);
    assert.match((await onlyError(base, session.id)).content, /waiting for a login that never comes/);
    await nothingLeft(server, [agent], before);
  });

  test("unknown session logs: 404", async () => {
    const r = await api<{ error: { code: string } }>(base, "GET", "/api/v1/sessions/nope/logs");
    assert.deepEqual([r.status, r.body.error.code], [404, "NOT_FOUND"]);
  });
});

describe("the agent's stderr as the operator's log", () => {
  let server: Server;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  test("lines are kept, pushed as session.log to task subscribers, and the profile's secret values are redacted", async () => {
    const base = server.url;
    const secret = "sk-test-do-not-show-123456";
    const trigger = path.join(tempDir(), "go");
    // Writes one line at once, the rest once the test is subscribed (the trigger file appears).
    const script = [
      "const fs = require('fs');",
      "process.stderr.write('agent booting\\n');",
      `const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(trigger)})) { clearInterval(t); process.stderr.write('using key ' + process.env.MY_API_KEY + '\\nsecond line\\n'); } }, 20);`,
      "setInterval(() => {}, 1000);",
    ].join("\n");
    await addProfile(base, { id: "chatty", command: [process.execPath, "-e", script], env: { MY_API_KEY: secret } });
    const { task, session } = await createTask(base, "hello", { agent_profile_id: "chatty" });
    const ws = await WsClient.connect(base);
    try {
      await ws.request("subscribe", { task_id: task.id });
      fs.writeFileSync(trigger, "");
      const isLog = (f: Envelope, text: string) =>
        f.action === "session.log" && (f.payload as SessionLogNotification).lines.some((l) => l.text === text);
      const frame = await ws.waitFor((f) => isLog(f, "using key [redacted]"), "the redacted line over /ws");
      const payload = frame.payload as SessionLogNotification;
      assert.deepEqual([payload.session_id, payload.task_id], [session.id, task.id]);
      await ws.waitFor((f) => isLog(f, "second line"), "the next line");
      const logs = await api<SessionLogs>(base, "GET", `/api/v1/sessions/${session.id}/logs`);
      assert.deepEqual(
        logs.body.lines.map((l) => l.text),
        ["agent booting", "using key [redacted]", "second line"],
      );
      for (const l of logs.body.lines) assert.ok(!Number.isNaN(Date.parse(l.at)), l.at);
      const everything = JSON.stringify(ws.frames) + JSON.stringify(logs.body);
      assert.ok(!everything.includes(secret), "the secret never leaves the board");
    } finally {
      ws.close();
      await api(base, "POST", `/api/v1/sessions/${session.id}/cancel`);
    }
    await waitForTaskState(base, task.id, "CANCELLED");
    const final: Task = (await api<Task>(base, "GET", `/api/v1/tasks/${task.id}`)).body;
    assert.equal(final.state, "CANCELLED");
  });
});
