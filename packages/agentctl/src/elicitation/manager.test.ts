import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { AGENT_EVENTS, ProtocolError } from "@kandev/protocol";
import { ElicitationManager } from "./manager.js";
import { formParams } from "../../test/elicitation-helpers.js";
import { ask, askOther, deadlinePassesQuietly, fakeClock, setup, tick, track } from "../../test/manager-fixture.js";

describe("ElicitationManager", () => {
  test("with the flag off a well-formed request is declined with no event and no pending (AC-20)", async () => {
    const s = setup();
    s.setFlag(false);
    assert.deepEqual(await s.manager.handleCreate(ask, new AbortController().signal), { action: "decline" });
    assert.equal(s.events.length, 0);
    assert.equal(s.manager.pendingCount, 0);
    assert.equal(s.time.timerCount, 0);
  });

  test("unsupported or unmappable requests are declined without reaching the operator (AC-16, AC-17, AC-18)", async () => {
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

  test("(agentctl half) a mappable request emits elicitation.requested with the mapped questions and a deadline (AC-08)", async () => {
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
            options: [
              { id: "Red", label: "Red" },
              { id: "Blue", label: "Blue" },
            ],
            companion: { id: "question_0_custom", title: "Other" },
          },
        ],
        deadline: new Date(s.time.clock.now() + 60_000).toISOString(),
      },
    ]);
  });

  test("the operator's answer resolves the ACP request once and settles answered/operator (AC-10, AC-13)", async () => {
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

  test("a rejected bundle resolves decline and settles declined/operator_rejected (AC-14)", async () => {
    const s = setup();
    const response = s.manager.handleCreate(ask, new AbortController().signal);
    s.manager.respond({ pending_id: "pending-1", answers: [], rejected: true });
    assert.deepEqual(await response, { action: "decline" });
    assert.deepEqual(s.settled(), [{ pending_id: "pending-1", outcome: "declined", reason: "operator_rejected", answers: [] }]);
  });

  test("a second respond for the same pending is NOT_FOUND and the agent sees one response (AC-12g, D5)", async () => {
    const s = setup();
    const p = track(s.manager.handleCreate(ask, new AbortController().signal));
    const params = { pending_id: "pending-1", answers: [{ question_id: "question_0", selected_options: ["Blue"] }] };
    s.manager.respond(params);
    assert.throws(
      () => s.manager.respond(params),
      (e: unknown) => e instanceof ProtocolError && e.code === "NOT_FOUND",
    );
    await tick();
    assert.equal(p.count, 1);
    assert.deepEqual(p.value, { action: "accept", content: { question_0: "Blue" } });
    assert.equal(s.settled().length, 1);
  });

  test("twenty concurrent duplicate responds: exactly one succeeds, nineteen are NOT_FOUND (D5)", async () => {
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

  test("an invalid answer is a VALIDATION_ERROR that leaves the pending live; a valid one then settles it (F10)", async () => {
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
      assert.throws(
        () => s.manager.respond(params),
        (e: unknown) => e instanceof ProtocolError && e.code === "VALIDATION_ERROR",
      );
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

  test("two identical requests on one session are two pendings answered independently (AC-12f, D3, D4)", async () => {
    const s = setup();
    const first = track(s.manager.handleCreate(ask, new AbortController().signal));
    const second = track(s.manager.handleCreate(ask, new AbortController().signal));
    assert.equal(s.manager.pendingCount, 2);
    assert.deepEqual(
      s.requested().map((e) => e.pending_id),
      ["pending-1", "pending-2"],
    );
    s.manager.respond({ pending_id: "pending-1", answers: [{ question_id: "question_0", selected_options: ["Red"] }] });
    await tick();
    assert.equal(first.count, 1);
    assert.equal(second.count, 0);
    assert.equal(s.manager.pendingCount, 1);
    s.manager.respond({ pending_id: "pending-2", answers: [] });
    await tick();
    assert.deepEqual(second.value, { action: "accept", content: {} });
  });

  test("default pending ids are UUIDs, distinct even for identical requests (AC-60)", async () => {
    const s = setup({ newId: undefined });
    void s.manager.handleCreate(ask, new AbortController().signal);
    void s.manager.handleCreate(ask, new AbortController().signal);
    const ids = s.requested().map((e) => e.pending_id as string);
    assert.equal(new Set(ids).size, 2);
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    s.manager.cancelAll("shutdown");
  });

  test("agent $/cancel_request (signal aborted with -32800) answers cancel and settles cancelled/agent_cancelled", async () => {
    const s = setup();
    const ac = new AbortController();
    const response = s.manager.handleCreate(ask, ac.signal);
    ac.abort(acp.RequestError.requestCancelled({ requestId: 0 }));
    assert.deepEqual(await response, { action: "cancel" });
    assert.deepEqual(s.settled(), [{ pending_id: "pending-1", outcome: "cancelled", reason: "agent_cancelled" }]);
    deadlinePassesQuietly(s);
    assert.throws(
      () => s.manager.respond({ pending_id: "pending-1", answers: [] }),
      (e: unknown) => e instanceof ProtocolError && e.code === "NOT_FOUND",
    );
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

  test("cancelling a turn answers cancel to that session's pendings only (turn_cancelled) (AC-15)", async () => {
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
    assert.deepEqual(
      s.settled().map((e) => e.reason),
      ["shutdown", "shutdown", "shutdown"],
    );
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
});
