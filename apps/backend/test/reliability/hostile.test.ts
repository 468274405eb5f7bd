// A hostile agent through the whole board (docs/RELIABILITY.md §1): the `fuzz` scenario's
// invalid elicitations and JSON-RPC junk reach agentctl, which must decline all of them before
// anything reaches the backend; the operator sees no clarification, no pending action and no
// notification until the one valid question, which then works end to end. The board's heap
// returns to where it was; an oversized frame fails the session cleanly and nothing else.
import { after, before, describe, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import type { Message, Task } from "@kandev/protocol";
import { agentText, clarificationMessages, notificationsOf, respond, startLoggedTask, waitForClarifications } from "../clarification-helpers.js";
import { WsClient, api, getMessages, waitForTaskState } from "../helpers.js";
import { heapAfterGcMiB, startBoard, type Server } from "./helpers.js";

const RED = { answers: [{ question_id: "question_0", selected_options: ["Red"] }] };

describe("a hostile agent through the board (real agentctl + mock agent)", () => {
  let server: Server;
  let base: string;
  before(async () => {
    ({ server } = await startBoard());
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("fuzz seed=7 count=1500: no operator surface for any invalid request, the valid question works, the board's heap returns to baseline", async (t: TestContext) => {
    // Warm up first (a plain turn), so the baseline includes what any session costs.
    const warm = await startLoggedTask(base, server.dir, "warm", "/e2e:echo warm");
    await waitForTaskState(base, warm.task.id, "REVIEW");
    const baseline = heapAfterGcMiB();
    const ws = await WsClient.connect(base);
    try {
      await ws.request("subscribe", { board: true });
      const { task, sessionId } = await startLoggedTask(base, server.dir, "fuzz", "/e2e:fuzz seed=7 count=1500");
      await ws.request("subscribe", { task_id: task.id });
      // The valid question comes after the agent's 1,500 invalid requests (16 in flight): give the
      // run the time agentctl's own fuzz test does (test/reliability/hostile-agent.test.ts), not
      // the 20 s of one ordinary wait, which a loaded 2-core machine can use up.
      const [m] = await waitForClarifications(base, sessionId, 1, 150_000);
      // The fuzz summary was said before the valid request: nothing came before it.
      const summaryLine = (await agentText(base, sessionId)).split("\n").find((l) => l.startsWith("fuzz summary: "));
      assert.ok(summaryLine !== undefined, "the agent reported its fuzz run first");
      const tally = JSON.parse(summaryLine.slice("fuzz summary: ".length)) as { sent: number; hung: number; unexpected: number; declined: number };
      assert.deepEqual([tally.sent, tally.hung, tally.unexpected], [1500, 0, 0]);
      t.diagnostic(`fuzz through the board: ${JSON.stringify(tally)}`);
      const clarifications = await clarificationMessages(base, sessionId);
      assert.equal(clarifications.length, 1, "one clarification: the valid one");
      assert.equal(m!.metadata.tool_call_id, "toolu_fake_1");
      const sent = notificationsOf(ws).filter((n) => n.session_id === sessionId);
      assert.equal(sent.length, 1, "one notification");
      const asked = ws.frames.filter(
        (f) => f.action === "session.message.added" && (f.payload as { message: Message }).message.type === "clarification_request",
      );
      assert.equal(asked.length, 1, "one overlay pushed to the browser");
      assert.equal((await api<unknown[]>(base, "GET", `/api/v1/clarifications?session_id=${sessionId}`)).body.length, 1);
      // ... and it works end to end.
      const ok = await respond(base, m!.metadata.pending_id as string, RED);
      assert.deepEqual([ok.status, ok.body.status], [200, "answered"]);
      const done: Task = await waitForTaskState(base, task.id, "REVIEW");
      assert.equal(done.pending_action, null);
      assert.match(await agentText(base, sessionId), /fuzz valid response: \{"action":"accept","content":\{"question_0":"Red"\}\}/);
      assert.equal((await api(base, "GET", "/api/v1/health")).status, 200);
    } finally {
      ws.close();
    }
    const after = heapAfterGcMiB();
    t.diagnostic(`board heap after GC: ${baseline.toFixed(1)} MiB before, ${after.toFixed(1)} MiB after`);
    assert.ok(after < baseline + 8, `heap ${after.toFixed(1)} MiB vs baseline ${baseline.toFixed(1)} MiB`);
  });

  test("an oversized ACP frame fails only that session, with the reason in its error message; the board goes on", async () => {
    const { task, sessionId } = await startLoggedTask(base, server.dir, "oversize", "/e2e:fuzz-oversize bytes=9437184");
    const failed = await waitForTaskState(base, task.id, "FAILED", 30_000);
    assert.equal(failed.pending_action, null);
    const errors = (await getMessages(base, sessionId)).filter((m) => m.type === "error");
    assert.equal(errors.length, 1, "one error message");
    assert.match(errors[0]!.content, /ACP connection failed: Incoming ACP data exceeds the configured 8388608 byte limit/);
    const next = await startLoggedTask(base, server.dir, "after", "/e2e:echo still here");
    await waitForTaskState(base, next.task.id, "REVIEW");
  });
});
