// Faults with questions in flight (docs/RELIABILITY.md §2): agentctl SIGKILLed with 100 pending,
// the agent dying mid-question, the agent stream dropping while events are emitted, the board
// SIGKILLed and restarted. Real processes throughout: the built agentctl and mock agent, and for
// the crash the built backend.
import { after, before, describe, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import type { Clarification, Message } from "@kandev/protocol";
import { clarificationMessages, respond, startLoggedTask, waitForClarifications, waitForClarificationStatus } from "../clarification-helpers.js";
import {
  WsClient,
  api,
  agentPids,
  descendants,
  newAgentPid,
  eventually,
  getTask,
  isGoneOrZombie,
  requireBuilt,
  backendMain,
  startBackendProcess,
  tempDir,
  waitForTaskState,
} from "../helpers.js";
import { clarificationsOf, startBoard, updatesOf, waitForPending, type Server } from "./helpers.js";

const RED = { answers: [{ question_id: "question_0", selected_options: ["Red"] }] };

describe("faults with clarifications in flight (real agentctl + mock agent)", () => {
  let server: Server;
  let base: string;
  before(async () => {
    ({ server } = await startBoard());
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("agentctl SIGKILLed with 100 elicitations pending: all 100 agent_disconnected within 2 s, every overlay withdrawn over /ws, every message kept, the session interrupted", async (t: TestContext) => {
    const ws = await WsClient.connect(base);
    try {
      const { task, sessionId } = await startLoggedTask(base, server.dir, "kill100", "/e2e:elicit-many count=100");
      await ws.request("subscribe", { task_id: task.id });
      const ids = await waitForPending(base, sessionId, 100);
      assert.equal(ids.length, 100);
      const messages = await clarificationMessages(base, sessionId);
      assert.equal(messages.length, 100);
      const [pid] = server.childPids();
      assert.ok(pid !== undefined, "this host's agentctl");
      const killedAt = Date.now();
      process.kill(pid, "SIGKILL");
      await eventually(
        async () => ((await clarificationsOf(base, sessionId, "pending")).length === 0 ? true : undefined),
        "no pending record left",
        2_000,
      );
      const elapsed = Date.now() - killedAt;
      t.diagnostic(`100 pending settled agent_disconnected ${elapsed} ms after the SIGKILL`);
      assert.ok(elapsed < 2_000, `settled in ${elapsed} ms`);
      const settled = await clarificationsOf(base, sessionId);
      assert.deepEqual([...new Set(settled.map((c) => `${c.status}/${c.resolution?.by}`))], ["agent_disconnected/agentctl_stopped"]);
      // Overlays: each message was pushed again with requests_input false.
      await eventually(
        () =>
          messages.every((m) => updatesOf(ws, m.id).some((u) => u.requests_input === false && u.metadata.status === "agent_disconnected"))
            ? true
            : undefined,
        "100 withdrawn overlays pushed",
        5_000,
      );
      const kept = await clarificationMessages(base, sessionId);
      assert.equal(kept.length, 100, "every clarification message is still in the database");
      assert.ok(kept.every((m: Message) => m.requests_input === false));
      // Mid-turn when agentctl died: interrupted (CANCELLED, "agentctl stopped"), resumable.
      const interrupted = await waitForTaskState(base, task.id, "CANCELLED");
      assert.equal(interrupted.pending_action, null);
      await eventually(() => (isGoneOrZombie(pid) ? true : undefined), "agentctl gone");
    } finally {
      ws.close();
    }
  });

  test("the agent process dies mid-question: the question is withdrawn (agent_disconnected), the session fails with the agent's last words", async () => {
    const before = agentPids(server);
    const { task, sessionId } = await startLoggedTask(base, server.dir, "agentdies", "/e2e:elicit-ask");
    const [m] = await waitForClarifications(base, sessionId);
    const pendingId = m!.metadata.pending_id as string;
    const agent = await newAgentPid(server, before);
    process.kill(agent, "SIGKILL");
    const c = await waitForClarificationStatus(base, pendingId, "agent_disconnected", 5_000);
    assert.ok(c.resolution !== null);
    const t = await waitForTaskState(base, task.id, "FAILED");
    assert.equal(t.pending_action, null);
    const late = await respond(base, pendingId, RED);
    assert.equal(late.status, 404);
    const kept = (await clarificationMessages(base, sessionId))[0]!;
    assert.deepEqual((kept.metadata.undelivered_answer as { answers: unknown }).answers, RED.answers, "the late answer is kept");
  });

  test("pending questions are reconciled agent_disconnected on start, answered ones keep their answer, nothing is orphaned", async () => {
    requireBuilt([backendMain]);
    const dir = tempDir();
    const dbPath = path.join(dir, "kandev.db");
    const env = { KANDEV_FEATURES_ACP_ELICITATION: "true" };
    const first = await startBackendProcess(dbPath, env);
    const { sessionId } = await startLoggedTask(first.url, dir, "crash", "/e2e:elicit-twice");
    const [a, b] = await waitForPending(first.url, sessionId, 2);
    assert.equal((await respond(first.url, a!, RED)).status, 200);
    await waitForClarificationStatus(first.url, a!, "answered");
    const children = descendants(first.child.pid!);
    first.child.kill("SIGKILL");
    await first.exited;
    await eventually(() => (children.every((p) => isGoneOrZombie(p)) ? true : undefined), "agentctl and agent gone with the board", 10_000);

    const second = await startBackendProcess(dbPath, env);
    try {
      const answered = (await api<Clarification>(second.url, "GET", `/api/v1/clarifications/${a}`)).body;
      assert.deepEqual([answered.status, answered.resolution?.answers], ["answered", RED.answers], "the operator's answer survived the crash");
      const orphan = (await api<Clarification>(second.url, "GET", `/api/v1/clarifications/${b}`)).body;
      assert.deepEqual([orphan.status, orphan.resolution?.by], ["agent_disconnected", "backend_restarted"]);
      assert.deepEqual((await api<Clarification[]>(second.url, "GET", "/api/v1/clarifications?status=pending")).body, []);
      const late = await respond(second.url, b!, RED);
      assert.equal(late.status, 404);
      const kept = (await clarificationMessages(second.url, sessionId)).find((x) => x.metadata.pending_id === b)!;
      assert.deepEqual((kept.metadata.undelivered_answer as { answers: unknown }).answers, RED.answers);
      const task = await getTask(second.url, kept.task_id);
      assert.equal(task.pending_action, null);
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  });
});
