// Races decided inside agentctl, forced in both orders over the real process (docs/RELIABILITY.md
// §3). Frames written back to back on the agent stream are handled in that order, each handler
// settling synchronously, and an agent's reaction to the first (e.g. withdrawing a question
// because another was answered) needs two process hops while the second frame already waits in
// agentctl's socket: the order is chosen by the test, not by luck. Every run: one
// `elicitation.settled`, one ACP response, and they agree.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Envelope } from "@kandev/protocol";
import { killAll, startSession, type Session } from "../agentctl-process.js";
import { eventsWhere, reportLine, wire, type WireFrame } from "./helpers.js";

after(killAll);

const RED = { answers: [{ question_id: "question_0", selected_options: ["Red"] }] };
type Requested = { pending_id: string; tool_call_id: string | null };

/** Sends several request frames in one tick (one pipe read on agentctl's side); resolves with each answer. */
async function sameTick(s: Session, frames: Array<[string, unknown]>): Promise<Envelope[]> {
  const ids = frames.map((_, i) => `tick-${Date.now()}-${i}`);
  const answers = ids.map((id) => s.client.waitFor((e) => e.id === id, 10_000, `answer to ${id}`));
  for (const [i, [action, payload]] of frames.entries()) s.client.sendFrame({ id: ids[i]!, type: "request", action, payload });
  return Promise.all(answers);
}

/** The ACP responses the agent received to its elicitation/create carrying `toolCallId`. */
function answersTo(logFile: string, toolCallId: string): WireFrame[] {
  const lines = wire(logFile);
  const ids = new Set(
    lines
      .filter((l) => l.dir === "out" && l.frame.method === "elicitation/create" && l.frame.params?.toolCallId === toolCallId)
      .map((l) => JSON.stringify(l.frame.id)),
  );
  return lines.filter((l) => l.dir === "in" && l.frame.method === undefined && ids.has(JSON.stringify(l.frame.id))).map((l) => l.frame);
}

async function asked(s: Session, count: number): Promise<Requested[]> {
  await s.client.waitFor(() => s.client.eventsOf("elicitation.requested").length >= count, 10_000, `${count} elicitation.requested`);
  return s.client.eventsOf("elicitation.requested").map((e) => e.payload as Requested);
}

describe("races inside agentctl, forced (real agentctl + mock agent)", () => {
  test("answer and turn cancel in one tick, answer first: answered, the agent got accept, one settle", async () => {
    const s = await startSession({ features: { acpElicitation: true } });
    await s.client.call("agent.prompt", { session_id: s.sessionId, text: "/e2e:elicit-ask", turn_id: "t" });
    const [q] = await asked(s, 1);
    const [answer, cancel] = await sameTick(s, [
      ["agent.elicitations.respond", { pending_id: q!.pending_id, ...RED }],
      ["agent.cancel", { session_id: s.sessionId }],
    ]);
    assert.deepEqual([answer!.type, cancel!.type], ["response", "response"]);
    await s.client.waitForEvent("turn.ended", { turn_id: "t" });
    const settled = eventsWhere(s.client, "elicitation.settled", "pending_id", q!.pending_id);
    assert.deepEqual(
      settled.map((e) => e.payload),
      [{ pending_id: q!.pending_id, outcome: "answered", reason: "operator", answers: RED.answers }],
    );
    assert.deepEqual(
      answersTo(s.logFile, "toolu_fake_1").map((f) => f.result),
      [{ action: "accept", content: { question_0: "Red" } }],
    );
  });

  test("turn cancel and answer in one tick, cancel first: the answer is NOT_FOUND, cancelled (turn_cancelled), the agent got cancel", async () => {
    const s = await startSession({ features: { acpElicitation: true } });
    await s.client.call("agent.prompt", { session_id: s.sessionId, text: "/e2e:elicit-ask", turn_id: "t" });
    const [q] = await asked(s, 1);
    const [cancel, answer] = await sameTick(s, [
      ["agent.cancel", { session_id: s.sessionId }],
      ["agent.elicitations.respond", { pending_id: q!.pending_id, ...RED }],
    ]);
    assert.equal(cancel!.type, "response");
    assert.deepEqual([answer!.type, (answer!.payload as { code: string }).code], ["error", "NOT_FOUND"]);
    await s.client.waitForEvent("turn.ended", { turn_id: "t", stop_reason: "cancelled" });
    const settled = eventsWhere(s.client, "elicitation.settled", "pending_id", q!.pending_id);
    assert.deepEqual(
      settled.map((e) => e.payload),
      [{ pending_id: q!.pending_id, outcome: "cancelled", reason: "turn_cancelled" }],
    );
    assert.deepEqual(
      answersTo(s.logFile, "toolu_fake_1").map((f) => f.result),
      [{ action: "cancel" }],
    );
  });

  test("answer vs the agent withdrawing its question: answers to B and A in one tick beat the withdrawal B's answer triggers", async () => {
    // elicit-race-withdraw: the agent sends $/cancel_request for A the moment B is answered.
    const s = await startSession({ features: { acpElicitation: true } });
    await s.client.call("agent.prompt", { session_id: s.sessionId, text: "/e2e:elicit-race-withdraw", turn_id: "t" });
    const qs = await asked(s, 2);
    const a = qs.find((q) => q.tool_call_id === "toolu_race_A")!;
    const b = qs.find((q) => q.tool_call_id === "toolu_race_B")!;
    const [rb, ra] = await sameTick(s, [
      ["agent.elicitations.respond", { pending_id: b.pending_id, ...RED }],
      ["agent.elicitations.respond", { pending_id: a.pending_id, ...RED }],
    ]);
    assert.deepEqual([rb!.type, ra!.type], ["response", "response"]);
    await s.client.waitForEvent("turn.ended", { turn_id: "t", stop_reason: "end_turn" });
    assert.deepEqual(
      eventsWhere(s.client, "elicitation.settled", "pending_id", a.pending_id).map((e) => (e.payload as { outcome: string }).outcome),
      ["answered"],
    );
    assert.equal(answersTo(s.logFile, "toolu_race_A").length, 1, "one response to A; the late $/cancel_request changed nothing");
    assert.deepEqual(reportLine(s.client, "t", "race A"), { action: "accept", content: { question_0: "Red" } });
    const cancels = wire(s.logFile).filter((l) => l.dir === "out" && l.frame.method === "$/cancel_request");
    assert.equal(cancels.length, 1, "the agent did withdraw A, after it was answered");
  });

  test("answer vs the agent withdrawing its question, withdrawal first: A is cancelled (agent_cancelled) and a later answer is NOT_FOUND", async () => {
    const s = await startSession({ features: { acpElicitation: true } });
    await s.client.call("agent.prompt", { session_id: s.sessionId, text: "/e2e:elicit-race-withdraw", turn_id: "t" });
    const qs = await asked(s, 2);
    const a = qs.find((q) => q.tool_call_id === "toolu_race_A")!;
    const b = qs.find((q) => q.tool_call_id === "toolu_race_B")!;
    await s.client.call("agent.elicitations.respond", { pending_id: b.pending_id, ...RED });
    const settledA = await s.client.waitForEvent("elicitation.settled", { pending_id: a.pending_id });
    assert.deepEqual(settledA.payload, { pending_id: a.pending_id, outcome: "cancelled", reason: "agent_cancelled" });
    const [late] = await sameTick(s, [["agent.elicitations.respond", { pending_id: a.pending_id, ...RED }]]);
    assert.equal((late!.payload as { code: string }).code, "NOT_FOUND");
    await s.client.waitForEvent("turn.ended", { turn_id: "t" });
    assert.deepEqual(
      answersTo(s.logFile, "toolu_race_A").map((f) => f.result),
      [{ action: "cancel" }],
    );
    assert.deepEqual(reportLine(s.client, "t", "race A"), { action: "cancel" });
  });
});
