// Races on one question (docs/RELIABILITY.md §3), over the real board, agentctl and mock agent.
// Each race is run in both forced orders (a barrier decides who goes first) and then left to the
// scheduler several times; every run must end in exactly one outcome, and the record must say what
// the agent received on the wire (helpers.ts `consistent`).
import { after, before, describe, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import type { Clarification } from "@kandev/protocol";
import { respond, startLoggedTask, waitForClarificationStatus, wireLog } from "../clarification-helpers.js";
import { api, eventually } from "../helpers.js";
import { clarificationsOf, consistent, startBoard, waitForPending, wireActionFor, wireActions, type BoardHooks, type Server } from "./helpers.js";
import type { AgentctlRecorder } from "../clarification-helpers.js";

const pick = (option: string) => ({ answers: [{ question_id: "question_0", selected_options: [option] }] });
const RED = pick("Red");

async function record(base: string, pendingId: string): Promise<Clarification> {
  return (await api<Clarification>(base, "GET", `/api/v1/clarifications/${pendingId}`)).body;
}

/** Waits until the record is settled and the agent's answer (if any) is on the wire; checks they agree. */
async function assertConsistent(base: string, pendingId: string, logFile: string, toolCallId: string): Promise<Clarification> {
  const settled = await eventually(async () => {
    const c = await record(base, pendingId);
    return c.status === "pending" ? undefined : c;
  }, `${pendingId} settled`);
  const wire = await eventually(() => {
    const w = wireActionFor(wireLog(logFile), toolCallId);
    return w === "none" && settled.status !== "agent_disconnected" ? undefined : w;
  }, `the agent's answer for ${toolCallId}`);
  assert.ok(consistent(settled.status, wire), `record ${settled.status} (${settled.resolution?.by}) but the agent received ${wire}`);
  return settled;
}

describe("races on one clarification (real agentctl + mock agent)", () => {
  let server: Server;
  let base: string;
  let rec: AgentctlRecorder;
  let hooks: BoardHooks;
  before(async () => {
    ({ server, rec, hooks } = await startBoard());
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("50 concurrent answers to one question: one 200, 49 404 from agentctl, exactly one ACP response, and it is the recorded one", async () => {
    const { sessionId, logFile } = await startLoggedTask(base, server.dir, "fifty", "/e2e:elicit-ask");
    const [id] = await waitForPending(base, sessionId, 1);
    const answers = Array.from({ length: 50 }, (_, i) => pick(i % 2 === 0 ? "Red" : "Blue"));
    const results = await Promise.all(answers.map((a) => respond(base, id!, a)));
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1);
    assert.equal(statuses.filter((s) => s === 404).length, 49);
    assert.equal(rec.respondsOf(sessionId).length, 50, "every submission was forwarded (agentctl adjudicates)");
    const received = await eventually(() => {
      const lines = wireLog(logFile).filter((l) => l.dir === "in" && (l.frame.result as { action?: string } | undefined)?.action !== undefined);
      return lines.length > 0 ? lines : undefined;
    }, "the answer on the wire");
    assert.equal(received.length, 1, "exactly one ACP response");
    const winner = answers[statuses.indexOf(200)]!;
    const content = (received[0]!.frame.result as { content: { question_0: string } }).content;
    assert.equal(content.question_0, winner.answers[0]!.selected_options[0], "the agent got the winning answer");
    const c = await record(base, id!);
    assert.deepEqual([c.status, c.resolution?.answers], ["answered", winner.answers], "and the record holds that same answer");
  });

  test("answer vs the agent withdrawing its question ($/cancel_request), both orders and free-running", async (t: TestContext) => {
    // The agent withdraws A the moment B is answered (elicit-race-withdraw).
    // Withdrawal first: answer B, wait for A to be cancelled, then answer A -> 404.
    const first = await startLoggedTask(base, server.dir, "wd-first", "/e2e:elicit-race-withdraw");
    await waitForPending(base, first.sessionId, 2);
    const byTool = async (sessionId: string) => {
      const rows = await clarificationsOf(base, sessionId);
      const ms = (await api<Array<{ metadata: Record<string, unknown> }>>(base, "GET", `/api/v1/sessions/${sessionId}/messages`)).body;
      const tool = (pendingId: string) => ms.find((m) => m.metadata.pending_id === pendingId)?.metadata.tool_call_id;
      return {
        a: rows.find((r) => tool(r.pending_id) === "toolu_race_A")!.pending_id,
        b: rows.find((r) => tool(r.pending_id) === "toolu_race_B")!.pending_id,
      };
    };
    const ids1 = await byTool(first.sessionId);
    assert.equal((await respond(base, ids1.b, RED)).status, 200);
    const withdrawn = await waitForClarificationStatus(base, ids1.a, "cancelled", 10_000);
    assert.equal(withdrawn.resolution?.by, "agent_cancelled");
    assert.equal((await respond(base, ids1.a, RED)).status, 404);
    await assertConsistent(base, ids1.a, first.logFile, "toolu_race_A");
    // Free-running: answer B and A back to back; either may win, the record must agree with the wire.
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const s = await startLoggedTask(base, server.dir, `wd-race-${i}`, "/e2e:elicit-race-withdraw");
      await waitForPending(base, s.sessionId, 2);
      const ids = await byTool(s.sessionId);
      const [rb, ra] = await Promise.all([respond(base, ids.b, RED), respond(base, ids.a, RED)]);
      assert.equal(rb.status, 200);
      const c = await assertConsistent(base, ids.a, s.logFile, "toolu_race_A");
      assert.equal(ra.status === 200, c.status === "answered", `HTTP ${ra.status} agrees with the record (${c.status})`);
      outcomes.push(c.status);
    }
    t.diagnostic(`answer vs agent cancel outcomes: ${outcomes.join(", ")}`);
  });

  test("answer vs turn cancel, both orders forced and free-running", async (t: TestContext) => {
    // Cancel first: agentctl settles turn_cancelled before the answer is forwarded.
    const c1 = await startLoggedTask(base, server.dir, "tc-first", "/e2e:elicit-ask");
    const [a] = await waitForPending(base, c1.sessionId, 1);
    assert.equal((await api(base, "POST", `/api/v1/sessions/${c1.sessionId}/cancel`)).status, 202);
    await waitForClarificationStatus(base, a!, "cancelled", 10_000);
    assert.equal((await respond(base, a!, RED)).status, 404);
    assert.equal((await assertConsistent(base, a!, c1.logFile, "toolu_fake_1")).resolution?.by, "turn_cancelled");
    // Answer first, with the cancel sent in the same tick as the forwarded answer (barrier on the send).
    const c2 = await startLoggedTask(base, server.dir, "tc-second", "/e2e:elicit-ask");
    const [b] = await waitForPending(base, c2.sessionId, 1);
    let cancel: Promise<unknown> | null = null;
    hooks.beforeAgentRequest = (sessionId, action) => {
      if (sessionId !== c2.sessionId || action !== "agent.elicitations.respond") return;
      hooks.beforeAgentRequest = undefined;
      cancel = api(base, "POST", `/api/v1/sessions/${c2.sessionId}/cancel`);
    };
    assert.equal((await respond(base, b!, RED)).status, 200);
    await cancel;
    assert.equal((await assertConsistent(base, b!, c2.logFile, "toolu_fake_1")).status, "answered");
    // Free-running: both at once.
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const s = await startLoggedTask(base, server.dir, `tc-race-${i}`, "/e2e:elicit-ask");
      const [id] = await waitForPending(base, s.sessionId, 1);
      const [r] = await Promise.all([respond(base, id!, RED), api(base, "POST", `/api/v1/sessions/${s.sessionId}/cancel`)]);
      const c = await assertConsistent(base, id!, s.logFile, "toolu_fake_1");
      assert.equal(r.status === 200, c.status === "answered", `HTTP ${r.status} agrees with the record (${c.status})`);
      outcomes.push(c.status);
      assert.deepEqual(wireActions(wireLog(s.logFile)).filter((w) => w !== "none").length, 1, "one answer on the wire");
    }
    t.diagnostic(`answer vs turn cancel outcomes: ${outcomes.join(", ")}`);
  });
});

describe("answer vs the answer deadline (agentctl's own timer, 2.5 s here)", () => {
  let server: Server;
  let base: string;
  before(async () => {
    ({ server } = await startBoard({ timeouts: { elicitationAnswerMs: 2_500, acpIdleMs: 120_000 } }));
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("answer vs the answer deadline, in both orders and at the edge: one outcome, recorded as received", async (t: TestContext) => {
    // Answer first: the deadline later finds nothing.
    const early = await startLoggedTask(base, server.dir, "dl-early", "/e2e:elicit-ask");
    const [e] = await waitForPending(base, early.sessionId, 1);
    assert.equal((await respond(base, e!, RED)).status, 200);
    assert.equal((await assertConsistent(base, e!, early.logFile, "toolu_fake_1")).status, "answered");
    // Deadline first: the answer after it is agentctl's 404.
    const late = await startLoggedTask(base, server.dir, "dl-late", "/e2e:elicit-ask");
    const [l] = await waitForPending(base, late.sessionId, 1);
    await waitForClarificationStatus(base, l!, "timed_out", 10_000);
    assert.equal((await respond(base, l!, RED)).status, 404);
    assert.equal((await assertConsistent(base, l!, late.logFile, "toolu_fake_1")).status, "timed_out");
    // At the edge: answers aimed at the deadline itself, a few ms either side.
    const offsets = [-40, -20, -5, 0, 5, 20];
    const runs = await Promise.all(
      offsets.map(async (offset, i) => {
        const s = await startLoggedTask(base, server.dir, `dl-edge-${i}`, "/e2e:elicit-ask");
        const [id] = await waitForPending(base, s.sessionId, 1);
        const deadline = Date.parse((await record(base, id!)).deadline!);
        await new Promise((r) => setTimeout(r, Math.max(0, deadline + offset - Date.now())));
        const r = await respond(base, id!, RED);
        const c = await assertConsistent(base, id!, s.logFile, "toolu_fake_1");
        assert.equal(r.status === 200, c.status === "answered", `HTTP ${r.status} agrees with the record (${c.status})`);
        return c.status;
      }),
    );
    t.diagnostic(`deadline edge outcomes: ${runs.join(", ")}`);
  });
});
