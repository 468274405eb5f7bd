// The flag's two sides over real processes (AC-19, AC-20), agentctl's own deadline reaching the
// record (F7/AC-64), and notification settings over REST and /ws.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { NotificationSettings, Task } from "@kandev/protocol";
import {
  AgentctlRecorder,
  agentText,
  clarificationMessages,
  elicitationAnswers,
  methodSequence,
  notificationsOf,
  startLoggedTask,
  waitForClarifications,
  waitForClarificationStatus,
  wireLog,
} from "./clarification-helpers.js";
import { WsClient, api, getMessages, getSession, startTestServer, tempDir, waitForTaskState } from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;
const FLAG = "features.acpElicitation";

/** Everything AC-19 compares about one /e2e:plain run. */
async function plainRun(flag: boolean) {
  const dir = tempDir();
  const server = await startTestServer({ dir, flagEnv: { [FLAG]: flag } });
  try {
    const { task, sessionId, logFile } = await startLoggedTask(server.url, dir, `plain-${flag}`, "/e2e:plain");
    const done = await waitForTaskState(server.url, task.id, "REVIEW");
    const init = wireLog(logFile).find((l) => l.dir === "in" && l.frame.method === "initialize")!;
    return {
      methods: methodSequence(logFile),
      capabilities: init.frame.params?.clientCapabilities as Record<string, unknown>,
      sessionState: (await getSession(server.url, sessionId)).state,
      taskState: done.state,
      messageTypes: (await getMessages(server.url, sessionId)).map((m) => `${m.author_type}:${m.type}`),
      pendingAction: done.pending_action,
    };
  } finally {
    await server.close();
  }
}

describe("features.acpElicitation on vs off", () => {
  test("an agent that never asks sees the same methods, final state, message types and pending_action with the flag on or off; only the capabilities differ (AC-19)", async () => {
    const on = await plainRun(true);
    const off = await plainRun(false);
    assert.ok(on.methods.includes("in session/prompt"));
    assert.deepEqual(on.methods, off.methods);
    assert.deepEqual([on.sessionState, on.taskState, on.pendingAction], [off.sessionState, off.taskState, off.pendingAction]);
    assert.deepEqual(on.messageTypes, off.messageTypes);
    assert.deepEqual(on.capabilities.elicitation, { form: {} });
    assert.equal("elicitation" in off.capabilities, false);
    const { elicitation: _dropped, ...rest } = on.capabilities;
    assert.deepEqual(rest, off.capabilities, "the capability is the only difference");
  });

  describe("flag off", () => {
    let server: Server;
    after(async () => {
      await server?.close();
    });

    test("an agent asking anyway is declined: no clarification, no pending action, no notification (AC-20)", async () => {
      const rec = new AgentctlRecorder();
      server = await startTestServer({ flagEnv: { [FLAG]: false }, onAgentEvent: rec.onAgentEvent });
      const ws = await WsClient.connect(server.url);
      try {
        await ws.request("subscribe", { board: true });
        const { task, sessionId, logFile } = await startLoggedTask(server.url, server.dir, "off", "/e2e:elicit-ask");
        const done = await waitForTaskState(server.url, task.id, "REVIEW");
        assert.equal(done.pending_action, null);
        assert.deepEqual(
          elicitationAnswers(logFile).map((l) => l.frame.result),
          [{ action: "decline" }],
        );
        assert.match(await agentText(server.url, sessionId), /elicitation response: \{"action":"decline"\}/);
        assert.equal((await clarificationMessages(server.url, sessionId)).length, 0);
        assert.equal((await api<unknown[]>(server.url, "GET", `/api/v1/clarifications?session_id=${sessionId}`)).body.length, 0);
        assert.equal(rec.requestedIds(sessionId).length, 0, "agentctl never announced it");
        const seen = ws.frames.filter((f) => f.action === "task.updated").map((f) => (f.payload as { task: Task }).task.pending_action);
        assert.ok(seen.length > 0 && seen.every((p) => p === null), `pending actions seen: ${seen.join(",")}`);
        assert.equal(notificationsOf(ws).length, 0);
      } finally {
        ws.close();
      }
    });
  });
});

describe("short deadlines (agentctl's answer timeout, the kandev wait)", () => {
  let server: Server;
  after(async () => {
    await server?.close();
  });

  test("the answer deadline, forwarded in agent.configure, declines the question: timed_out, and the turn continues (F7, AC-64)", async () => {
    const rec = new AgentctlRecorder();
    server = await startTestServer({
      flagEnv: { [FLAG]: true },
      timeouts: { elicitationAnswerMs: 1500 },
      kandevWaitMs: 1500,
      onAgentRequest: rec.onAgentRequest,
    });
    const { task, sessionId, logFile } = await startLoggedTask(server.url, server.dir, "deadline", "/e2e:elicit-ask");
    const [m] = await waitForClarifications(server.url, sessionId);
    const configure = rec.requests.find((r) => r.sessionId === sessionId && r.action === "agent.configure")!;
    assert.deepEqual((configure.params as { timeouts: unknown }).timeouts, { elicitation_answer_ms: 1500 });
    const c = await waitForClarificationStatus(server.url, m!.metadata.pending_id as string, "timed_out", 10_000);
    assert.equal(c.resolution?.by, "deadline");
    const done = await waitForTaskState(server.url, task.id, "REVIEW");
    assert.equal(done.pending_action, null);
    assert.deepEqual(
      elicitationAnswers(logFile).map((l) => l.frame.result),
      [{ action: "decline" }],
    );
    const settled = (await clarificationMessages(server.url, sessionId))[0]!;
    assert.deepEqual([settled.requests_input, settled.metadata.status], [false, "timed_out"]);
  });

  test("a kandev question nobody answers times out: timed_out, and the agent reads that the operator did not answer in time", async () => {
    const { task, sessionId } = await startLoggedTask(server.url, server.dir, "kandev-timeout", "/e2e:kandev-question");
    const [m] = await waitForClarifications(server.url, sessionId);
    const c = await waitForClarificationStatus(server.url, m!.metadata.pending_id as string, "timed_out", 10_000);
    assert.equal(c.source, "kandev_tool");
    await waitForTaskState(server.url, task.id, "REVIEW");
    assert.match(await agentText(server.url, sessionId), /kandev tool result: The operator did not answer in time/);
  });
});

describe("notification settings", () => {
  let server: Server;
  after(async () => {
    await server?.close();
  });

  test("defaults, PATCH validation, and an opted-in turn_finished reaching every browser once", async () => {
    server = await startTestServer();
    const base = server.url;
    assert.deepEqual((await api<NotificationSettings>(base, "GET", "/api/v1/notification-settings")).body, {
      clarification_requested: true,
      turn_finished: false,
    });
    for (const bad of [{ turn_finished: "yes" }, { nope: true }, "[1]"]) {
      const r = await api<{ error: { code: string } }>(base, "PATCH", "/api/v1/notification-settings", bad);
      assert.deepEqual([r.status, r.body.error.code], [400, "VALIDATION_ERROR"], JSON.stringify(bad));
    }
    const patched = await api<NotificationSettings>(base, "PATCH", "/api/v1/notification-settings", { turn_finished: true });
    assert.deepEqual(patched.body, { clarification_requested: true, turn_finished: true });
    const a = await WsClient.connect(base);
    const b = await WsClient.connect(base);
    try {
      const { task } = await startLoggedTask(base, server.dir, "finished", "/e2e:plain");
      await waitForTaskState(base, task.id, "REVIEW");
      for (const ws of [a, b]) {
        await ws.waitFor((f) => f.action === "notification", "turn_finished");
        const sent = notificationsOf(ws);
        assert.equal(sent.length, 1);
        assert.deepEqual(
          [sent[0]!.kind, sent[0]!.task_id, sent[0]!.pending_id, sent[0]!.title],
          ["session.turn_finished", task.id, null, "Task finished"],
        );
      }
    } finally {
      a.close();
      b.close();
    }
    // Persisted: a restart of the board keeps the choice.
    const dir = server.dir;
    const dbPath = server.dbPath;
    await server.close();
    server = await startTestServer({ dir, dbPath });
    assert.equal((await api<NotificationSettings>(server.url, "GET", "/api/v1/notification-settings")).body.turn_finished, true);
  });
});
