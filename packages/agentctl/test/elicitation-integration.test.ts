// ACP form elicitation end to end over real processes: the BUILT agentctl CLI runs the BUILT mock
// agent, and the test drives the agent stream the way the backend does. What the agent actually
// received is read back from MOCK_AGENT_LOG, so every assertion about "the ACP response" is about
// the wire. Build first: npx tsc -p packages/{protocol,mock-agent,agentctl}/tsconfig.json
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { AGENT_EVENTS, type AgentEventName, type Envelope } from "@kandev/protocol";
import { killAll, startSession, turnText, type Session } from "./agentctl-process.js";
import { StreamError, type StreamClient } from "./stream-client.js";

after(killAll);

type Frame = { id?: number | string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };
type Line = { dir: "in" | "out"; frame: Frame; ts: number };
type Requested = { pending_id: string; session_id: string; tool_call_id: string | null; message: string; deadline: string; questions: Q[] };
type Q = { id: string; kind: string; title?: string; prompt: string; options: { id: string; label: string }[]; companion?: { id: string } };

function wire(logFile: string): Line[] {
  return fs
    .readFileSync(logFile, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Line);
}

/** Each elicitation/create the mock sent, with every response it got for it and any $/cancel_request. */
function exchanges(logFile: string) {
  const lines = wire(logFile);
  return lines
    .filter((l) => l.dir === "out" && l.frame.method === "elicitation/create")
    .map((req) => ({
      id: req.frame.id,
      params: req.frame.params ?? {},
      responses: lines.filter((l) => l.dir === "in" && l.frame.id === req.frame.id && l.frame.method === undefined).map((l) => l.frame),
      cancels: lines.filter((l) => l.dir === "out" && l.frame.method === "$/cancel_request" && l.frame.params?.requestId === req.frame.id).length,
    }));
}

/** Starts agentctl + mock agent with the flag set as given. */
function start(flag: boolean, configure: Record<string, unknown> = {}): Promise<Session> {
  return startSession({ features: { acpElicitation: flag }, ...configure });
}

async function prompt(s: Session, text: string, turnId: string): Promise<void> {
  assert.deepEqual(await s.client.call("agent.prompt", { session_id: s.sessionId, text, turn_id: turnId }), { turn_id: turnId });
}

async function requested(client: StreamClient, count = 1): Promise<Requested[]> {
  await client.waitFor(() => client.eventsOf("elicitation.requested").length >= count, 30_000, `${count} elicitation.requested`);
  return client.eventsOf("elicitation.requested").map((e) => e.payload as Requested);
}

function settledOf(client: StreamClient, pendingId: string): Envelope[] {
  return client.eventsOf("elicitation.settled").filter((e) => (e.payload as { pending_id: string }).pending_id === pendingId);
}

function respond(client: StreamClient, payload: Record<string, unknown>) {
  return client.call("agent.elicitations.respond", payload);
}

function assertEventsValid(events: Envelope[]): void {
  for (const e of events) AGENT_EVENTS[e.action as AgentEventName].parse(e.payload);
}

/** The agent's report line(s) for the turn, parsed back into the responses it received. */
function reported(client: StreamClient, turnId: string): unknown[] {
  return turnText(client, turnId)
    .split("\n")
    .filter((l) => l.startsWith("elicitation "))
    .map((l) => {
      const json = l.slice(l.indexOf(": ") + 2);
      return l.startsWith("elicitation response") ? JSON.parse(json) : { error: json };
    });
}

async function endTurn(client: StreamClient, turnId: string, stopReason = "end_turn"): Promise<void> {
  await client.waitForEvent("turn.ended", { turn_id: turnId, stop_reason: stopReason }, 30_000);
}

describe("ACP elicitation end to end", () => {
  test("flag on: initialize advertises elicitation.form and the agent received exactly that (AC-01)", async () => {
    const s = await start(true);
    assert.deepEqual(s.initResult.client_capabilities, { _meta: { terminal_output: true }, elicitation: { form: {} } });
    const init = wire(s.logFile).find((l) => l.dir === "in" && l.frame.method === "initialize");
    assert.deepEqual(init?.frame.params?.clientCapabilities, { _meta: { terminal_output: true }, elicitation: { form: {} } });
  });

  test("an agent that never elicits sees the same exchange with the flag on and off, capabilities aside (AC-19)", async () => {
    const methods = async (flag: boolean) => {
      const s = await start(flag);
      await prompt(s, "/e2e:plain", "t1");
      await endTurn(s.client, "t1");
      const lines = wire(s.logFile);
      return {
        methods: lines.map((l) => `${l.dir}:${l.frame.method ?? "response"}`),
        events: s.client.events.map((e) => e.action),
        caps: lines.find((l) => l.frame.method === "initialize")?.frame.params?.clientCapabilities,
      };
    };
    const [off, on] = [await methods(false), await methods(true)];
    assert.deepEqual(on.methods, off.methods);
    assert.deepEqual(on.events, off.events);
    assert.notDeepEqual(on.caps, off.caps);
  });

  test("flag off: a well-formed elicitation is declined on the wire and no elicitation event is emitted (AC-20)", async () => {
    const s = await start(false);
    await prompt(s, "/e2e:elicit-ask", "t1");
    await endTurn(s.client, "t1");
    assert.deepEqual(reported(s.client, "t1"), [{ action: "decline" }]);
    const [x] = exchanges(s.logFile);
    assert.deepEqual(x?.responses, [{ jsonrpc: "2.0", id: x?.id, result: { action: "decline" } }]);
    assert.equal(s.client.eventsOf("elicitation.requested").length + s.client.eventsOf("elicitation.settled").length, 0);
  });

  test("elicit-ask: the answer continues the same turn with one ACP response; its settle event carries the answer and who gave it (AC-08, AC-10, AC-12, AC-12i, AC-13)", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-ask", "t1");
    const [ev] = await requested(s.client);
    assert.ok(ev);
    assert.equal(ev.session_id, s.sessionId);
    assert.equal(ev.tool_call_id, "toolu_fake_1");
    assert.deepEqual(
      ev.questions.map((q) => [q.id, q.kind, q.companion?.id]),
      [
        ["question_0", "single", "question_0_custom"],
        ["question_1", "multi", "question_1_custom"],
      ],
    );
    assert.ok(Date.parse(ev.deadline) > Date.now());
    const status = await s.client.call<{ pending_elicitations: number; turn_active: boolean }>("agent.status");
    assert.deepEqual([status.pending_elicitations, status.turn_active], [1, true]);
    const answers = [
      { question_id: "question_1", selected_options: ["iOS", "Web"] },
      { question_id: "question_0", selected_options: ["Red"], custom_text: "  crimson, please " },
    ];
    assert.deepEqual(await respond(s.client, { pending_id: ev.pending_id, answers, user: "ada" }), { success: true });
    await endTurn(s.client, "t1");
    const expected = { action: "accept", content: { question_1: ["Web", "iOS"], question_0: "Red", question_0_custom: "crimson, please" } };
    assert.deepEqual(reported(s.client, "t1"), [expected]);
    const [x] = exchanges(s.logFile);
    assert.equal(x?.params.sessionId, s.sessionId);
    assert.deepEqual(
      x?.responses.map((r) => r.result),
      [expected],
    );
    // AC-13: one session/prompt, and that request is the one answered with the stop reason.
    const lines = wire(s.logFile);
    const prompts = lines.filter((l) => l.dir === "in" && l.frame.method === "session/prompt");
    assert.equal(prompts.length, 1);
    const stop = lines.find((l) => l.dir === "out" && l.frame.id === prompts[0]?.frame.id && l.frame.result !== undefined);
    assert.deepEqual(stop?.frame.result, { stopReason: "end_turn" });
    // The settle event alone records the outcome: the answer as the operator gave it, and who.
    assert.deepEqual(
      settledOf(s.client, ev.pending_id).map((e) => e.payload),
      [{ pending_id: ev.pending_id, outcome: "answered", reason: "operator", answers, user: "ada" }],
    );
    assert.equal((await s.client.call<{ pending_elicitations: number }>("agent.status")).pending_elicitations, 0);
    assertEventsValid(s.client.events);
  });

  test("elicit-ask-latest: unmarked companions are found, and a pick plus text sends both keys (A1, A2)", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-ask-latest", "t1");
    const [ev] = await requested(s.client);
    assert.deepEqual(
      ev?.questions.map((q) => q.companion?.id),
      ["question_0_custom", "question_1_custom"],
    );
    await respond(s.client, {
      pending_id: ev?.pending_id,
      answers: [{ question_id: "question_0", selected_options: ["Blue"], custom_text: " navy " }],
    });
    await endTurn(s.client, "t1");
    assert.deepEqual(reported(s.client, "t1"), [{ action: "accept", content: { question_0: "Blue", question_0_custom: "navy" } }]);
  });

  test("elicit-mcp: the apiKey form is one text question and the text goes to its own key (AC-04a, AC-11a, AC-56)", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-mcp", "t1");
    const [ev] = await requested(s.client);
    assert.equal(ev?.tool_call_id, null);
    assert.deepEqual(ev?.questions, [{ id: "apiKey", kind: "text", prompt: "Enter your API key", options: [] }]);
    await respond(s.client, { pending_id: ev?.pending_id, answers: [{ question_id: "apiKey", selected_options: [], custom_text: "sk-123" }] });
    await endTurn(s.client, "t1");
    assert.deepEqual(reported(s.client, "t1"), [{ action: "accept", content: { apiKey: "sk-123" } }]);
  });

  test("elicit-refusal: one two-option question; picking the first sends choice=retry_fallback (AC-12c)", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-refusal", "t1");
    const [ev] = await requested(s.client);
    assert.deepEqual(
      ev?.questions.map((q) => [q.id, q.prompt === ev.message, q.options.map((o) => o.id)]),
      [["choice", true, ["retry_fallback", "cancelled"]]],
    );
    await respond(s.client, { pending_id: ev?.pending_id, answers: [{ question_id: "choice", selected_options: ["retry_fallback"] }] });
    await endTurn(s.client, "t1");
    assert.deepEqual(reported(s.client, "t1"), [{ action: "accept", content: { choice: "retry_fallback" } }]);
  });

  test("url mode, request scope and an empty schema are declined without reaching the operator (AC-16, AC-17, AC-18)", async () => {
    const s = await start(true);
    for (const [i, name] of ["elicit-url", "elicit-request-scope", "elicit-empty-schema"].entries()) {
      await prompt(s, `/e2e:${name}`, `t${i}`);
      await endTurn(s.client, `t${i}`);
      assert.deepEqual(reported(s.client, `t${i}`), [{ action: "decline" }], name);
    }
    assert.equal(s.client.eventsOf("elicitation.requested").length, 0);
    assert.equal(s.client.eventsOf("elicitation.settled").length, 0);
    assert.ok(exchanges(s.logFile).every((x) => x.responses.length === 1));
  });

  test("a malformed body (no message) is declined by agentctl, not answered -32602 by the SDK (AC-18)", async () => {
    // Needs the handler registered with rawElicitationParams (see src/elicitation/INVARIANTS.md).
    const s = await start(true);
    await prompt(s, '/e2e:elicit-json {"mode":"form","requestedSchema":{"properties":{"a":{"type":"string"}}}}', "t1");
    await endTurn(s.client, "t1");
    assert.deepEqual(reported(s.client, "t1"), [{ action: "decline" }]);
    assert.equal(s.client.eventsOf("elicitation.requested").length, 0);
  });

  test("elicit-eleven: questions arrive in D1 order and answering nothing sends accept {} (AC-12d, AC-12b)", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-eleven", "t1");
    const [ev] = await requested(s.client);
    assert.deepEqual(
      ev?.questions.map((q) => q.id),
      Array.from({ length: 11 }, (_, i) => `question_${i}`),
    );
    await respond(s.client, { pending_id: ev?.pending_id, answers: [] });
    await endTurn(s.client, "t1");
    assert.deepEqual(reported(s.client, "t1"), [{ action: "accept", content: {} }]);
  });

  test("elicit-orphan-companion: the orphan companion is neither a question nor a companion (AC-12e)", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-orphan-companion", "t1");
    const [ev] = await requested(s.client);
    assert.deepEqual(
      ev?.questions.map((q) => [q.id, q.companion?.id]),
      [
        ["question_0", "question_0_custom"],
        ["question_1", "question_1_custom"],
      ],
    );
    await respond(s.client, { pending_id: ev?.pending_id, answers: [], rejected: true });
    await endTurn(s.client, "t1");
    assert.deepEqual(reported(s.client, "t1"), [{ action: "decline" }]);
  });

  test("elicit-twice: identical requests are two pendings; answering one leaves the other waiting (AC-12f, AC-60, D3, D4)", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-twice", "t1");
    const [a, b] = await requested(s.client, 2);
    assert.ok(a && b && a.pending_id !== b.pending_id);
    assert.deepEqual(a.questions, b.questions);
    await respond(s.client, { pending_id: a.pending_id, answers: [{ question_id: "question_0", selected_options: ["Red"] }] });
    await s.client.waitForEvent("elicitation.settled", { pending_id: a.pending_id });
    assert.equal((await s.client.call<{ pending_elicitations: number }>("agent.status")).pending_elicitations, 1);
    assert.equal(settledOf(s.client, b.pending_id).length, 0);
    await respond(s.client, { pending_id: b.pending_id, answers: [], rejected: true });
    await endTurn(s.client, "t1");
    const byRequest = exchanges(s.logFile).map((x) => x.responses.map((r) => r.result));
    assert.equal(byRequest.length, 2);
    assert.deepEqual(
      byRequest.flat().sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
      [{ action: "accept", content: { question_0: "Red" } }, { action: "decline" }],
    );
  });

  test("elicit-three: three concurrent elicitations answered out of order each get their own response (D3)", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-three", "t1");
    const evs = await requested(s.client, 3);
    const byFirstQuestion = new Map(evs.map((e) => [e.questions[0]?.id, e.pending_id]));
    await respond(s.client, { pending_id: byFirstQuestion.get("choice"), answers: [{ question_id: "choice", selected_options: ["cancelled"] }] });
    await respond(s.client, {
      pending_id: byFirstQuestion.get("apiKey"),
      answers: [{ question_id: "apiKey", selected_options: [], custom_text: "k" }],
    });
    await respond(s.client, {
      pending_id: byFirstQuestion.get("question_0"),
      answers: [{ question_id: "question_1", selected_options: ["Android"] }],
    });
    await endTurn(s.client, "t1");
    assert.deepEqual(reported(s.client, "t1"), [
      { action: "accept", content: { question_1: ["Android"] } },
      { action: "accept", content: { apiKey: "k" } },
      { action: "accept", content: { choice: "cancelled" } },
    ]);
    assert.ok(exchanges(s.logFile).every((x) => x.responses.length === 1));
  });

  test("twenty concurrent duplicate responds: one success, nineteen NOT_FOUND, one ACP response (AC-12g, D5)", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-ask", "t1");
    const [ev] = await requested(s.client);
    const attempts = Array.from({ length: 20 }, (_, i) =>
      respond(s.client, { pending_id: ev?.pending_id, answers: [{ question_id: "question_0", selected_options: [i % 2 ? "Red" : "Blue"] }] }),
    );
    const results = await Promise.allSettled(attempts);
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    assert.equal(failed.length, 19);
    assert.ok(failed.every((r) => r.reason instanceof StreamError && r.reason.code === "NOT_FOUND"));
    await endTurn(s.client, "t1");
    const [x] = exchanges(s.logFile);
    assert.equal(x?.responses.length, 1);
    assert.equal(reported(s.client, "t1").length, 1);
    assert.equal(settledOf(s.client, ev?.pending_id ?? "").length, 1);
  });

  test("an invalid answer is VALIDATION_ERROR, sends nothing, and leaves the pending answerable (F10)", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-ask", "t1");
    const [ev] = await requested(s.client);
    for (const answers of [
      [{ question_id: "nope", selected_options: [] }],
      [{ question_id: "question_0", selected_options: ["Red", "Blue"] }],
      [{ question_id: "question_0", selected_options: ["Green"] }],
    ]) {
      await assert.rejects(respond(s.client, { pending_id: ev?.pending_id, answers }), (e: StreamError) => e.code === "VALIDATION_ERROR");
    }
    await assert.rejects(
      respond(s.client, { pending_id: ev?.pending_id, answers: [{ question_id: "question_0", selected_options: ["Red"] }], rejected: true }),
      (e: StreamError) => e.code === "VALIDATION_ERROR",
    );
    assert.equal(exchanges(s.logFile)[0]?.responses.length, 0);
    assert.equal((await s.client.call<{ pending_elicitations: number }>("agent.status")).pending_elicitations, 1);
    await respond(s.client, { pending_id: ev?.pending_id, answers: [{ question_id: "question_0", selected_options: ["Blue"] }] });
    await endTurn(s.client, "t1");
    assert.deepEqual(reported(s.client, "t1"), [{ action: "accept", content: { question_0: "Blue" } }]);
  });

  test("elicit-agent-cancel: the agent's $/cancel_request settles the pending as cancelled and the agent gets cancel", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-agent-cancel 300", "t1");
    const [ev] = await requested(s.client);
    const settled = await s.client.waitForEvent("elicitation.settled", { pending_id: ev?.pending_id });
    assert.deepEqual(settled.payload, { pending_id: ev?.pending_id, outcome: "cancelled", reason: "agent_cancelled" });
    await endTurn(s.client, "t1");
    const [x] = exchanges(s.logFile);
    assert.equal(x?.cancels, 1);
    assert.deepEqual(
      x?.responses.map((r) => r.result),
      [{ action: "cancel" }],
    );
    await assert.rejects(respond(s.client, { pending_id: ev?.pending_id, answers: [] }), (e: StreamError) => e.code === "NOT_FOUND");
  });

  test("agent.cancel while an elicitation is pending answers cancel on the wire and the turn ends cancelled (AC-15)", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-ask", "t1");
    const [ev] = await requested(s.client);
    await s.client.call("agent.cancel", { session_id: s.sessionId });
    const settled = await s.client.waitForEvent("elicitation.settled", { pending_id: ev?.pending_id });
    assert.deepEqual(settled.payload, { pending_id: ev?.pending_id, outcome: "cancelled", reason: "turn_cancelled" });
    await endTurn(s.client, "t1", "cancelled");
    assert.deepEqual(
      exchanges(s.logFile)[0]?.responses.map((r) => r.result),
      [{ action: "cancel" }],
    );
  });

  test("an unanswered elicitation is declined at the configured deadline and the turn continues (AC-64)", async () => {
    const s = await start(true, { timeouts: { elicitation_answer_ms: 400, acp_idle_ms: 20_000 } });
    await prompt(s, "/e2e:elicit-ask", "t1");
    const [ev] = await requested(s.client);
    assert.ok(Date.parse(ev?.deadline ?? "") - Date.now() <= 400);
    const settled = await s.client.waitForEvent("elicitation.settled", { pending_id: ev?.pending_id }, 15_000);
    assert.deepEqual(settled.payload, { pending_id: ev?.pending_id, outcome: "timed_out", reason: "deadline" });
    await endTurn(s.client, "t1");
    assert.deepEqual(reported(s.client, "t1"), [{ action: "decline" }]);
    assert.deepEqual(
      exchanges(s.logFile)[0]?.responses.map((r) => r.result),
      [{ action: "decline" }],
    );
  });

  test("SIGTERM with two elicitations pending: both are answered cancel on the wire before agentctl exits 0", async () => {
    const s = await start(true);
    await prompt(s, "/e2e:elicit-twice", "t1");
    await requested(s.client, 2);
    s.ctl.child.kill("SIGTERM");
    const exit = await s.ctl.exited;
    assert.equal(exit.code, 0);
    const xs = exchanges(s.logFile);
    assert.equal(xs.length, 2);
    for (const x of xs)
      assert.deepEqual(
        x.responses.map((r) => r.result),
        [{ action: "cancel" }],
      );
  });
});
