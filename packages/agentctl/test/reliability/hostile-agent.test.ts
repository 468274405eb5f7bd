// Hostile agents against the BUILT agentctl (docs/RELIABILITY.md §1): the mock agent's `fuzz`
// scenario floods agentctl with seeded invalid elicitations and JSON-RPC junk, and hand-written
// agents break the protocol in ways the SDK does not catch. agentctl must stay up, decline every
// invalid request without an `elicitation.requested` event, keep working, and not grow.
import { after, describe, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { ACP_MAX_FRAME_BYTES } from "../../src/acp-guard.js";
import { killAll, startSession, type Session } from "../agentctl-process.js";
import { eventsWhere, expectFuzz, hostileAgent, reportLine, rssMiB, total, wire, type FuzzTally } from "./helpers.js";

after(killAll);

const RED = { answers: [{ question_id: "question_0", selected_options: ["Red"] }] };
/**
 * agentctl (and the agent it starts) run with a 64 MiB old space: a leak across rounds would
 * exhaust it and crash the process, which the test would see, while garbage is simply collected.
 */
const SMALL_HEAP = { NODE_OPTIONS: "--max-old-space-size=64" };

async function fuzzRound(s: Session, seed: number, count: number, turnId: string): Promise<{ tally: FuzzTally; pendingId: string }> {
  const before = s.client.eventsOf("elicitation.requested").length;
  const seen = new Set(s.client.eventsOf("elicitation.requested").map((e) => (e.payload as { pending_id: string }).pending_id));
  await s.client.call("agent.prompt", { session_id: s.sessionId, text: `/e2e:fuzz seed=${seed} count=${count}`, turn_id: turnId });
  const req = await s.client.waitFor(
    (e) =>
      e.type === "notification" &&
      ((e.action === "elicitation.requested" && !seen.has((e.payload as { pending_id: string }).pending_id)) ||
        (e.action === "turn.ended" && (e.payload as { turn_id: string }).turn_id === turnId)),
    150_000,
    `the fuzz round ${turnId} to reach its valid elicitation`,
  );
  assert.equal(req.action, "elicitation.requested", `the turn ended before the valid elicitation: ${JSON.stringify(req.payload)}`);
  // Only the final, valid request may reach the operator's side of the stream.
  const requested = s.client.eventsOf("elicitation.requested").slice(before);
  assert.equal(requested.length, 1, "exactly one elicitation.requested per round");
  assert.equal((requested[0]!.payload as { tool_call_id: string }).tool_call_id, "toolu_fake_1");
  const tally = reportLine<FuzzTally>(s.client, turnId, "fuzz summary");
  assert.ok(tally !== undefined, "the fuzz summary was reported before the valid request");
  return { tally, pendingId: (requested[0]!.payload as { pending_id: string }).pending_id };
}

async function answerValid(s: Session, pendingId: string, turnId: string): Promise<void> {
  assert.deepEqual(await s.client.call("agent.elicitations.respond", { pending_id: pendingId, ...RED }), { success: true });
  await s.client.waitForEvent("turn.ended", { turn_id: turnId, stop_reason: "end_turn" }, 20_000);
  assert.deepEqual(reportLine(s.client, turnId, "fuzz valid response"), { action: "accept", content: { question_0: "Red" } });
}

describe("hostile agents (fuzz, real agentctl + mock agent)", () => {
  test("fuzz seed=42 count=3000: every invalid request is declined or refused, none reaches the stream, the valid one works, memory plateaus", async (t: TestContext) => {
    const s = await startSession({ features: { acpElicitation: true } }, SMALL_HEAP);
    const pid = s.ctl.child.pid!;
    const baseline = rssMiB(pid);
    const seed = 42;
    const count = 3000;
    const { tally, pendingId } = await fuzzRound(s, seed, count, "fuzz-1");
    const want = expectFuzz(seed, count, s.sessionId);
    assert.equal(tally.sent, count);
    assert.equal(tally.hung, 0, "every request was answered in time");
    assert.equal(tally.unexpected, 0, "no invalid request was accepted or cancelled");
    assert.equal(tally.declined + total(tally.rpcErrors), want.requests, "each SDK request: decline or a JSON-RPC error");
    assert.equal(tally.notified, want.notifications);
    assert.deepEqual(tally.raw, Object.fromEntries(Object.entries(want.raw).filter(([, n]) => n > 0)));
    assert.ok(want.categories.size >= 28, `the corpus covers ${want.categories.size} categories`);
    t.diagnostic(`fuzz seed=42: ${JSON.stringify({ ...tally, byCategory: undefined })}`);

    // The wire: raw junk got exactly what it is owed.
    const lines = wire(s.logFile);
    const nullIdErrors = lines.filter((l) => l.dir === "in" && l.frame.id === null && l.frame.error !== undefined);
    assert.equal(nullIdErrors.length, want.raw.error_null_id, "one -32700/-32600 (id null) per junk line");
    const answeredIds = new Set(lines.filter((l) => l.dir === "in" && l.frame.method === undefined).map((l) => JSON.stringify(l.frame.id)));
    const unanswered = want.replyIds.filter((id) => !answeredIds.has(JSON.stringify(id)));
    assert.deepEqual(
      unanswered.map((id) => String(id).slice(0, 40)),
      [],
      "each raw request answered under its own id",
    );

    const status = await s.client.call<{ pending_elicitations: number; pending_permissions: number; agent_running: boolean }>("agent.status");
    assert.deepEqual([status.pending_elicitations, status.pending_permissions, status.agent_running], [1, 0, true]);
    await answerValid(s, pendingId, "fuzz-1");
    const afterFirst = rssMiB(pid);

    // Two more rounds: a leak would grow each round (and exhaust the 64 MiB old space).
    for (const [i, round] of [43, 44].entries()) {
      const turnId = `fuzz-${i + 2}`;
      const r = await fuzzRound(s, round, 1000, turnId);
      assert.deepEqual([r.tally.hung, r.tally.unexpected], [0, 0]);
      await answerValid(s, r.pendingId, turnId);
    }
    const final = await s.client.call<{ pending_elicitations: number; pending_permissions: number; turn_active: boolean }>("agent.status");
    assert.deepEqual([final.pending_elicitations, final.pending_permissions, final.turn_active], [0, 0, false]);
    const last = rssMiB(pid);
    t.diagnostic(`agentctl RSS: ${baseline.toFixed(0)} MiB at start, ${afterFirst.toFixed(0)} after 3000 cases, ${last.toFixed(0)} after 5000`);
    assert.ok(
      last < afterFirst + 24,
      `RSS ${last.toFixed(0)} MiB after 5000 cases vs ${afterFirst.toFixed(0)} after the first 3000 (baseline ${baseline.toFixed(0)})`,
    );
    assert.ok(s.ctl.child.exitCode === null, "agentctl is still running");
  });

  test(`a frame over ${ACP_MAX_FRAME_BYTES} bytes fails the ACP connection cleanly: the agent is stopped, the turn ends with the reason, agentctl stays up`, async () => {
    const s = await startSession({ features: { acpElicitation: true } });
    await s.client.call("agent.prompt", { session_id: s.sessionId, text: `/e2e:fuzz-oversize bytes=${ACP_MAX_FRAME_BYTES + 1024}`, turn_id: "big" });
    const ended = await s.client.waitForEvent("turn.ended", { turn_id: "big" }, 30_000);
    assert.equal((ended.payload as { stop_reason: string }).stop_reason, "error");
    assert.deepEqual((ended.payload as { error: { code: string } }).error.code, "ACP_CONNECTION_FAILED");
    assert.match((ended.payload as { error: { message: string } }).error.message, /exceeds the configured 8388608 byte limit/);
    const exited = await s.client.waitForEvent("agent.exited", {}, 10_000);
    assert.match(
      (exited.payload as { stderr_tail: string }).stderr_tail,
      /agentctl: the ACP connection failed: .*8388608 byte limit.*the agent was stopped/,
    );
    const status = await s.client.call<{ agent_running: boolean; turn_active: boolean }>("agent.status");
    assert.deepEqual([status.agent_running, status.turn_active], [false, false]);
  });

  test("a frame just under the limit is read whole (the bound is the documented one, not lower)", async () => {
    const s = await startSession({ features: { acpElicitation: true } });
    // An agent_message_chunk of ~7.9 MiB: valid, so it reaches the stream as one session.update.
    await s.client.call("agent.prompt", {
      session_id: s.sessionId,
      text: `/e2e:fuzz-oversize bytes=${ACP_MAX_FRAME_BYTES - 64 * 1024}`,
      turn_id: "near",
    });
    const update = await s.client.waitFor(
      (e) => e.action === "session.update" && (e.payload as { turn_id: string }).turn_id === "near",
      30_000,
      "the big chunk",
    );
    assert.ok((update.payload as { update: { text: string } }).update.text.length > ACP_MAX_FRAME_BYTES - 128 * 1024);
    await s.client.call("agent.cancel", { session_id: s.sessionId });
    await s.client.waitForEvent("turn.ended", { turn_id: "near", stop_reason: "cancelled" }, 10_000);
  });

  test("an agent answering session/prompt without a stopReason ends the turn with INVALID_RESPONSE instead of hanging it", async () => {
    const s = await startSession({
      agent: { command: hostileAgent(`send({ jsonrpc: "2.0", id: msg.id, result: { stopReason: { nested: true } } });`) },
    });
    await s.client.call("agent.prompt", { session_id: s.sessionId, text: "hi", turn_id: "bad" });
    const ended = await s.client.waitForEvent("turn.ended", { turn_id: "bad" }, 10_000);
    assert.deepEqual(ended.payload, {
      session_id: s.sessionId,
      turn_id: "bad",
      stop_reason: "error",
      error: { code: "INVALID_RESPONSE", message: "the agent answered session/prompt without a valid stopReason" },
    });
  });

  test("an agent that closes its ACP output but keeps running is stopped: the turn ends, nothing waits on it", async () => {
    const s = await startSession({ agent: { command: hostileAgent(`process.stdout.end(); setInterval(() => {}, 1000);`) } });
    await s.client.call("agent.prompt", { session_id: s.sessionId, text: "hi", turn_id: "mute" });
    const ended = await s.client.waitForEvent("turn.ended", { turn_id: "mute" }, 15_000);
    assert.deepEqual((ended.payload as { error: { code: string; message: string } }).error, {
      code: "ACP_CONNECTION_FAILED",
      message: "the agent closed its ACP output but kept running",
    });
    await s.client.waitForEvent("agent.exited", {}, 10_000);
    assert.equal(eventsWhere(s.client, "turn.ended", "turn_id", "mute").length, 1, "exactly one turn.ended");
  });
});
