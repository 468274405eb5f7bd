import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { AGENT_EVENTS, ProtocolError } from "@kandev/protocol";
import type { ElicitationResponse } from "./answers.js";
import { checkElicitationTimeouts, ElicitationManager, type ElicitationClock, type ElicitationManagerOptions } from "./manager.js";
import { formParams, opts } from "../../test/elicitation-helpers.js";

/**
 * A clock whose time moves only when the test says so; timers fire in deadline order. Node turns a
 * delay above 2^31-1 ms into 1 ms; this clock refuses one, so a manager that forgot the ceiling fails.
 */
function fakeClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: ElicitationClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      seq += 1;
      if (ms > 2 ** 31 - 1) throw new RangeError(`setTimeout(${ms}) would fire after 1 ms in Node`);
      timers.set(seq, { at: now + Math.max(1, ms), fn });
      return seq;
    },
    clearTimeout: (handle) => {
      timers.delete(handle as number);
    },
  };
  return {
    clock,
    advance(ms: number) {
      const target = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (due === undefined) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = target;
    },
    get timerCount() {
      return timers.size;
    },
  };
}

type Emitted = { event: string; payload: Record<string, unknown> };

function setup(overrides: Partial<ElicitationManagerOptions> = {}) {
  const time = fakeClock();
  const events: Emitted[] = [];
  const logs: string[] = [];
  let flag = true;
  let counter = 0;
  const manager = new ElicitationManager({
    features: () => ({ acpElicitation: flag }),
    answerTimeoutMs: 60_000,
    emit: (event, payload) => {
      // Every event must satisfy its wire schema (validated in both directions).
      AGENT_EVENTS[event].parse(payload);
      events.push({ event, payload });
    },
    newId: () => `pending-${++counter}`,
    clock: time.clock,
    log: (m) => logs.push(m),
    ...overrides,
  });
  return {
    manager,
    time,
    events,
    logs,
    setFlag: (on: boolean) => {
      flag = on;
    },
    requested: () => events.filter((e) => e.event === "elicitation.requested").map((e) => e.payload),
    settled: () => events.filter((e) => e.event === "elicitation.settled").map((e) => e.payload),
  };
}

const ask = formParams(
  {
    question_0: { type: "string", title: "Colour", description: "Which colour?", oneOf: opts("Red", "Blue") },
    question_0_custom: { type: "string", title: "Other", _meta: { _askUserQuestionCustomAnswer: { questionId: "question_0" } } },
  },
  { toolCallId: "toolu_1", sessionId: "sess-A" },
);
const askOther = { ...ask, sessionId: "sess-B" };

/** Tracks whether a promise has settled, without awaiting it. */
function track(p: Promise<ElicitationResponse>) {
  const state: { value?: ElicitationResponse; count: number } = { count: 0 };
  void p.then((v) => {
    state.value = v;
    state.count += 1;
  });
  return state;
}
const tick = () => new Promise<void>((r) => setImmediate(r));

/**
 * After every pending settled, the one deadline timer may still be armed (it is shared and left
 * running); when its time comes it settles nothing, emits nothing and is not re-armed.
 */
function deadlinePassesQuietly(s: ReturnType<typeof setup>) {
  const events = s.events.length;
  assert.ok(s.time.timerCount <= 1, `at most the shared deadline timer is armed, found ${s.time.timerCount}`);
  s.time.advance(10 * 60_000);
  assert.equal(s.events.length, events);
  assert.equal(s.time.timerCount, 0);
}

describe("ElicitationManager", () => {
  test("AC-20 with the flag off a well-formed request is declined with no event and no pending", async () => {
    const s = setup();
    s.setFlag(false);
    assert.deepEqual(await s.manager.handleCreate(ask, new AbortController().signal), { action: "decline" });
    assert.equal(s.events.length, 0);
    assert.equal(s.manager.pendingCount, 0);
    assert.equal(s.time.timerCount, 0);
  });

  test("AC-16 AC-17 AC-18 unsupported or unmappable requests are declined without reaching the operator", async () => {
    const s = setup();
    const bad: unknown[] = [
      { mode: "url", sessionId: "s", message: "m", url: "https://example.invalid", elicitationId: "e" },
      { ...ask, sessionId: undefined, requestId: 1 },
      formParams({}),
      formParams({ n: { type: "number" } }),
      "garbage",
    ];
    for (const raw of bad) assert.deepEqual(await s.manager.handleCreate(raw, new AbortController().signal), { action: "decline" });
    assert.equal(s.events.length, 0);
    assert.equal(s.manager.pendingCount, 0);
    assert.equal(s.logs.length, bad.length);
    assert.ok(s.logs.every((l) => !l.includes("Which colour")));
  });

  test("AC-08 (agentctl half) a mappable request emits elicitation.requested with the mapped questions and a deadline", async () => {
    const s = setup();
    const p = track(s.manager.handleCreate(ask, new AbortController().signal));
    await tick();
    assert.equal(p.count, 0);
    assert.equal(s.manager.pendingCount, 1);
    assert.deepEqual(s.requested(), [
      {
        pending_id: "pending-1",
        session_id: "sess-A",
        tool_call_id: "toolu_1",
        message: "Please answer the following questions.",
        questions: [
          {
            id: "question_0",
            kind: "single",
            title: "Colour",
            prompt: "Which colour?",
            options: [{ id: "Red", label: "Red" }, { id: "Blue", label: "Blue" }],
            companion: { id: "question_0_custom", title: "Other" },
          },
        ],
        deadline: new Date(s.time.clock.now() + 60_000).toISOString(),
      },
    ]);
  });

  test("AC-10 AC-13 the operator's answer resolves the ACP request once and settles answered/operator", async () => {
    const s = setup();
    const response = s.manager.handleCreate(ask, new AbortController().signal);
    assert.deepEqual(s.manager.respond({ pending_id: "pending-1", answers: [{ question_id: "question_0", selected_options: ["Red"] }] }), {
      success: true,
    });
    assert.deepEqual(await response, { action: "accept", content: { question_0: "Red" } });
    assert.deepEqual(s.settled(), [
      { pending_id: "pending-1", outcome: "answered", reason: "operator", answers: [{ question_id: "question_0", selected_options: ["Red"] }] },
    ]);
    assert.equal(s.manager.pendingCount, 0);
    deadlinePassesQuietly(s);
  });

  test("the operator's settle event carries the answer as given and who gave it, so it alone records the outcome", async () => {
    const s = setup();
    const response = s.manager.handleCreate(ask, new AbortController().signal);
    // Given out of declaration order with a custom text: the event keeps what the operator sent.
    const answers = [{ question_id: "question_0", selected_options: ["Blue"], custom_text: "navy" }];
    s.manager.respond({ pending_id: "pending-1", answers, user: "ada" });
    await response;
    assert.deepEqual(s.settled(), [{ pending_id: "pending-1", outcome: "answered", reason: "operator", answers, user: "ada" }]);
    const skip = setup();
    const skipped = skip.manager.handleCreate(ask, new AbortController().signal);
    skip.manager.respond({ pending_id: "pending-1", answers: [], rejected: true, reject_reason: "not now", user: "local" });
    assert.deepEqual(await skipped, { action: "decline" });
    assert.deepEqual(skip.settled(), [
      { pending_id: "pending-1", outcome: "declined", reason: "operator_rejected", answers: [], reject_reason: "not now", user: "local" },
    ]);
    for (const event of [...s.settled(), ...skip.settled()]) assert.ok(AGENT_EVENTS["elicitation.settled"].safeParse(event).success);
  });

  test("AC-14 a rejected bundle resolves decline and settles declined/operator_rejected", async () => {
    const s = setup();
    const response = s.manager.handleCreate(ask, new AbortController().signal);
    s.manager.respond({ pending_id: "pending-1", answers: [], rejected: true });
    assert.deepEqual(await response, { action: "decline" });
    assert.deepEqual(s.settled(), [{ pending_id: "pending-1", outcome: "declined", reason: "operator_rejected", answers: [] }]);
  });

  test("AC-12g D5 a second respond for the same pending is NOT_FOUND and the agent sees one response", async () => {
    const s = setup();
    const p = track(s.manager.handleCreate(ask, new AbortController().signal));
    const params = { pending_id: "pending-1", answers: [{ question_id: "question_0", selected_options: ["Blue"] }] };
    s.manager.respond(params);
    assert.throws(() => s.manager.respond(params), (e: unknown) => e instanceof ProtocolError && e.code === "NOT_FOUND");
    await tick();
    assert.equal(p.count, 1);
    assert.deepEqual(p.value, { action: "accept", content: { question_0: "Blue" } });
    assert.equal(s.settled().length, 1);
  });

  test("D5 twenty concurrent duplicate responds: exactly one succeeds, nineteen are NOT_FOUND", async () => {
    const s = setup();
    const p = track(s.manager.handleCreate(ask, new AbortController().signal));
    const attempts = Array.from({ length: 20 }, (_, i) =>
      Promise.resolve().then(() =>
        s.manager.respond({ pending_id: "pending-1", answers: [{ question_id: "question_0", selected_options: [i % 2 ? "Red" : "Blue"] }] }),
      ),
    );
    const results = await Promise.allSettled(attempts);
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    assert.equal(rejected.length, 19);
    assert.ok(rejected.every((r) => r.reason instanceof ProtocolError && r.reason.code === "NOT_FOUND"));
    await tick();
    assert.equal(p.count, 1);
    assert.equal(s.settled().length, 1);
  });

  test("F10 an invalid answer is a VALIDATION_ERROR that leaves the pending live; a valid one then settles it", async () => {
    const s = setup();
    const response = s.manager.handleCreate(ask, new AbortController().signal);
    const invalid = [
      { pending_id: "pending-1", answers: [{ question_id: "nope", selected_options: [] }] },
      { pending_id: "pending-1", answers: [{ question_id: "question_0", selected_options: ["Red", "Blue"] }] },
      { pending_id: "pending-1", answers: [{ question_id: "question_0", selected_options: ["Green"] }] },
      { pending_id: "pending-1", answers: [{ question_id: "question_0", selected_options: ["Red"] }], rejected: true },
      { pending_id: "pending-1", answers: [{ question_id: "question_0", selected_options: [], custom_text: "x".repeat(10_001) }] },
      { pending_id: "", answers: [] },
      { pending_id: "pending-1" } as never,
    ];
    for (const params of invalid) {
      assert.throws(() => s.manager.respond(params), (e: unknown) => e instanceof ProtocolError && e.code === "VALIDATION_ERROR");
    }
    assert.equal(s.manager.pendingCount, 1);
    assert.equal(s.settled().length, 0);
    s.manager.respond({ pending_id: "pending-1", answers: [{ question_id: "question_0", selected_options: [], custom_text: " Teal " }] });
    assert.deepEqual(await response, { action: "accept", content: { question_0_custom: "Teal" } });
  });

  test("respond for an unknown pending id is NOT_FOUND", () => {
    const s = setup();
    assert.throws(
      () => s.manager.respond({ pending_id: "ghost", answers: [] }),
      (e: unknown) => e instanceof ProtocolError && e.code === "NOT_FOUND" && /ghost/.test(e.message),
    );
  });

  test("AC-12f D3 D4 two identical requests on one session are two pendings answered independently", async () => {
    const s = setup();
    const first = track(s.manager.handleCreate(ask, new AbortController().signal));
    const second = track(s.manager.handleCreate(ask, new AbortController().signal));
    assert.equal(s.manager.pendingCount, 2);
    assert.deepEqual(s.requested().map((e) => e["pending_id"]), ["pending-1", "pending-2"]);
    s.manager.respond({ pending_id: "pending-1", answers: [{ question_id: "question_0", selected_options: ["Red"] }] });
    await tick();
    assert.equal(first.count, 1);
    assert.equal(second.count, 0);
    assert.equal(s.manager.pendingCount, 1);
    s.manager.respond({ pending_id: "pending-2", answers: [] });
    await tick();
    assert.deepEqual(second.value, { action: "accept", content: {} });
  });

  test("AC-60 default pending ids are UUIDs, distinct even for identical requests", async () => {
    const s = setup({ newId: undefined });
    void s.manager.handleCreate(ask, new AbortController().signal);
    void s.manager.handleCreate(ask, new AbortController().signal);
    const ids = s.requested().map((e) => e["pending_id"] as string);
    assert.equal(new Set(ids).size, 2);
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    s.manager.cancelAll("shutdown");
  });

  test("AC-64 an unanswered elicitation is declined at the deadline, not before, and settles timed_out", async () => {
    const s = setup();
    const p = track(s.manager.handleCreate(ask, new AbortController().signal));
    s.time.advance(59_999);
    await tick();
    assert.equal(p.count, 0);
    s.time.advance(1);
    await tick();
    assert.deepEqual(p.value, { action: "decline" });
    assert.deepEqual(s.settled(), [{ pending_id: "pending-1", outcome: "timed_out", reason: "deadline" }]);
    assert.equal(s.manager.pendingCount, 0);
    assert.throws(() => s.manager.respond({ pending_id: "pending-1", answers: [] }), (e: unknown) => e instanceof ProtocolError && e.code === "NOT_FOUND");
  });

  test("AC-64 one shared timer serves every deadline: each pending is declined at its own deadline, none early", async () => {
    const s = setup();
    const a = track(s.manager.handleCreate(ask, new AbortController().signal)); // due at 60 s
    s.time.advance(30_000);
    const b = track(s.manager.handleCreate(askOther, new AbortController().signal)); // due at 90 s
    s.time.advance(10_000);
    const c = track(s.manager.handleCreate(ask, new AbortController().signal)); // due at 100 s
    assert.equal(s.time.timerCount, 1, "later deadlines arm nothing of their own");
    s.manager.respond({ pending_id: "pending-1", answers: [{ question_id: "question_0", selected_options: ["Red"] }] });
    s.time.advance(49_999); // 89.999 s: the timer armed for pending-1 fired at 60 s and found nothing due
    await tick();
    assert.equal(a.value?.action, "accept");
    assert.equal(b.count, 0);
    assert.equal(s.time.timerCount, 1);
    s.time.advance(1); // 90 s
    await tick();
    assert.deepEqual(b.value, { action: "decline" });
    assert.equal(c.count, 0);
    s.time.advance(10_000); // 100 s
    await tick();
    assert.deepEqual(c.value, { action: "decline" });
    assert.deepEqual(s.settled().map((e) => [e["pending_id"], e["reason"]]), [["pending-1", "operator"], ["pending-2", "deadline"], ["pending-3", "deadline"]]);
    assert.equal(s.time.timerCount, 0);
  });

  test("AC-64 with the wall clock set back, each pending is still declined at its own deadline by that clock", async () => {
    const s = setup();
    const late = track(s.manager.handleCreate(ask, new AbortController().signal)); // due at wall 60 s
    const timersNow = s.time.clock.now;
    s.time.clock.now = () => timersNow() - 30_000; // the wall clock goes back 30 s; timers run on
    const early = track(s.manager.handleCreate(askOther, new AbortController().signal)); // due at wall 30 s
    s.time.advance(59_999); // wall 29.999 s
    await tick();
    assert.equal(early.count + late.count, 0);
    s.time.advance(1); // wall 30 s
    await tick();
    assert.deepEqual(early.value, { action: "decline" });
    assert.equal(late.count, 0);
    s.time.advance(30_000); // wall 60 s
    await tick();
    assert.deepEqual(late.value, { action: "decline" });
    assert.equal(s.time.timerCount, 0);
  });

  test("AC-64 a deadline beyond setTimeout's 24.8-day ceiling re-arms instead of firing early", async () => {
    const days40 = 40 * 24 * 3600 * 1000;
    const s = setup({ answerTimeoutMs: days40 });
    const p = track(s.manager.handleCreate(ask, new AbortController().signal));
    s.time.advance(2 ** 31);
    await tick();
    assert.equal(p.count, 0);
    assert.equal(s.time.timerCount, 1);
    s.time.advance(days40 - 2 ** 31);
    await tick();
    assert.deepEqual(p.value, { action: "decline" });
  });

  test("agent $/cancel_request (signal aborted with -32800) answers cancel and settles cancelled/agent_cancelled", async () => {
    const s = setup();
    const ac = new AbortController();
    const response = s.manager.handleCreate(ask, ac.signal);
    ac.abort(acp.RequestError.requestCancelled({ requestId: 0 }));
    assert.deepEqual(await response, { action: "cancel" });
    assert.deepEqual(s.settled(), [{ pending_id: "pending-1", outcome: "cancelled", reason: "agent_cancelled" }]);
    deadlinePassesQuietly(s);
    assert.throws(() => s.manager.respond({ pending_id: "pending-1", answers: [] }), (e: unknown) => e instanceof ProtocolError && e.code === "NOT_FOUND");
  });

  test("a closed ACP connection (signal aborted otherwise) settles cancelled/agent_disconnected", async () => {
    const s = setup();
    const ac = new AbortController();
    const response = s.manager.handleCreate(ask, ac.signal);
    ac.abort(new Error("ACP connection closed"));
    assert.deepEqual(await response, { action: "cancel" });
    assert.deepEqual(s.settled(), [{ pending_id: "pending-1", outcome: "cancelled", reason: "agent_disconnected" }]);
  });

  test("a request whose signal is already aborted is answered cancel without an event", async () => {
    const s = setup();
    const ac = new AbortController();
    ac.abort();
    assert.deepEqual(await s.manager.handleCreate(ask, ac.signal), { action: "cancel" });
    assert.equal(s.events.length, 0);
  });

  test("AC-15 cancelling a turn answers cancel to that session's pendings only (turn_cancelled)", async () => {
    const s = setup();
    const a1 = track(s.manager.handleCreate(ask, new AbortController().signal));
    const a2 = track(s.manager.handleCreate(ask, new AbortController().signal));
    const b = track(s.manager.handleCreate(askOther, new AbortController().signal));
    s.manager.cancelSession("sess-A", "turn_cancelled");
    await tick();
    assert.deepEqual([a1.value, a2.value], [{ action: "cancel" }, { action: "cancel" }]);
    assert.equal(b.count, 0);
    assert.deepEqual(s.settled(), [
      { pending_id: "pending-1", outcome: "cancelled", reason: "turn_cancelled" },
      { pending_id: "pending-2", outcome: "cancelled", reason: "turn_cancelled" },
    ]);
    assert.equal(s.manager.pendingCount, 1);
    s.manager.cancelSession("sess-unknown", "turn_cancelled");
    assert.equal(s.manager.pendingCount, 1);
  });

  test("shutdown answers cancel to every pending (cancelAll) and leaves nothing behind", async () => {
    const s = setup();
    const all = [ask, ask, askOther].map((raw) => track(s.manager.handleCreate(raw, new AbortController().signal)));
    s.manager.cancelAll("shutdown");
    await tick();
    assert.ok(all.every((p) => p.count === 1 && p.value?.action === "cancel"));
    assert.deepEqual(s.settled().map((e) => e["reason"]), ["shutdown", "shutdown", "shutdown"]);
    assert.equal(s.manager.pendingCount, 0);
    assert.equal(s.time.timerCount, 0);
    s.manager.cancelAll("shutdown");
    assert.equal(s.settled().length, 3);
  });

  test("every terminal transition emits exactly one settled event, whatever races after it", async () => {
    const s = setup();
    const ac = new AbortController();
    const p = track(s.manager.handleCreate(ask, ac.signal));
    s.manager.respond({ pending_id: "pending-1", answers: [] });
    ac.abort(acp.RequestError.requestCancelled());
    s.manager.cancelSession("sess-A", "turn_cancelled");
    s.manager.cancelAll("shutdown");
    s.time.advance(120_000);
    await tick();
    assert.equal(p.count, 1);
    assert.deepEqual(p.value, { action: "accept", content: {} });
    assert.deepEqual(s.settled(), [{ pending_id: "pending-1", outcome: "answered", reason: "operator", answers: [] }]);
  });

  test("an answer delivered synchronously from inside the requested event settles normally", async () => {
    let manager: ElicitationManager | undefined;
    const settled: unknown[] = [];
    manager = new ElicitationManager({
      features: () => ({ acpElicitation: true }),
      answerTimeoutMs: 1000,
      newId: () => "p",
      clock: fakeClock().clock,
      emit: (event, payload) => {
        if (event === "elicitation.requested") manager?.respond({ pending_id: "p", answers: [] });
        else settled.push(payload);
      },
    });
    assert.deepEqual(await manager.handleCreate(ask, new AbortController().signal), { action: "accept", content: {} });
    assert.equal(settled.length, 1);
    assert.equal(manager.pendingCount, 0);
  });

  test("an event that cannot be emitted declines the request rather than leaving it unanswerable", async () => {
    const settled: unknown[] = [];
    const manager = new ElicitationManager({
      features: () => ({ acpElicitation: true }),
      answerTimeoutMs: 1000,
      clock: fakeClock().clock,
      emit: (event, payload) => {
        if (event === "elicitation.requested") throw new Error("stream buffer full");
        settled.push(payload);
      },
    });
    assert.deepEqual(await manager.handleCreate(ask, new AbortController().signal), { action: "decline" });
    assert.deepEqual((settled[0] as { reason: string }).reason, "undeliverable");
    assert.equal(manager.pendingCount, 0);
  });

  test("a failing settled emitter still delivers the ACP response", async () => {
    const manager = new ElicitationManager({
      features: () => ({ acpElicitation: true }),
      answerTimeoutMs: 1000,
      newId: () => "p",
      clock: fakeClock().clock,
      emit: (event) => {
        if (event === "elicitation.settled") throw new Error("socket gone");
      },
    });
    const response = manager.handleCreate(ask, new AbortController().signal);
    manager.respond({ pending_id: "p", answers: [] });
    assert.deepEqual(await response, { action: "accept", content: {} });
  });

  test("a pending id collision declines the second request instead of overwriting the first", async () => {
    const s = setup({ newId: () => "same" });
    const first = track(s.manager.handleCreate(ask, new AbortController().signal));
    assert.deepEqual(await s.manager.handleCreate(ask, new AbortController().signal), { action: "decline" });
    assert.equal(s.manager.pendingCount, 1);
    s.manager.respond({ pending_id: "same", answers: [] });
    await tick();
    assert.equal(first.count, 1);
  });

  test("F13a the answer deadline must be strictly below the ACP idle timeout", () => {
    assert.equal(checkElicitationTimeouts(55 * 60_000, 60 * 60_000), null);
    assert.match(checkElicitationTimeouts(60_000, 60_000) ?? "", /below the ACP idle timeout/);
    assert.match(checkElicitationTimeouts(0) ?? "", /between/);
    assert.match(checkElicitationTimeouts(Number.NaN) ?? "", /between/);
    assert.throws(
      () => new ElicitationManager({ features: () => ({ acpElicitation: true }), answerTimeoutMs: 10, idleTimeoutMs: 10, emit: () => {} }),
      RangeError,
    );
  });
});
