import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { ProtocolError } from "@kandev/protocol";
import { checkElicitationTimeouts, ElicitationManager } from "./manager.js";
import { ask, askOther, setup, tick, track } from "../../test/manager-fixture.js";

describe("ElicitationManager deadlines", () => {
  test("an unanswered elicitation is declined at the deadline, not before, and settles timed_out (AC-64)", async () => {
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
    assert.throws(
      () => s.manager.respond({ pending_id: "pending-1", answers: [] }),
      (e: unknown) => e instanceof ProtocolError && e.code === "NOT_FOUND",
    );
  });

  test("one shared timer serves every deadline: each pending is declined at its own deadline, none early (AC-64)", async () => {
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
    assert.deepEqual(
      s.settled().map((e) => [e.pending_id, e.reason]),
      [
        ["pending-1", "operator"],
        ["pending-2", "deadline"],
        ["pending-3", "deadline"],
      ],
    );
    assert.equal(s.time.timerCount, 0);
  });

  test("with the wall clock set back, each pending is still declined at its own deadline by that clock (AC-64)", async () => {
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

  test("a deadline beyond setTimeout's 24.8-day ceiling re-arms instead of firing early (AC-64)", async () => {
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

  test("the answer deadline must be strictly below the ACP idle timeout (F13a)", () => {
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
