import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { RequestCancel, type CancelSignal } from "./cancel-signal.js";

describe("RequestCancel (the per-request cancellation agentctl creates itself)", () => {
  test("listeners run once, in the order added, on the first abort only; the reason is kept", () => {
    const c = new RequestCancel();
    const calls: string[] = [];
    c.addEventListener("abort", () => calls.push(`a:${String(c.signal.reason)}`));
    c.addEventListener("abort", () => calls.push("b"));
    assert.equal(c.signal.aborted, false);
    c.abort("why");
    c.abort("again");
    assert.deepEqual(calls, ["a:why", "b"]);
    assert.equal(c.signal.aborted, true);
    assert.equal(c.signal.reason, "why");
  });

  test("a removed listener does not run; the same listener added twice runs once", () => {
    const c = new RequestCancel();
    let removed = 0;
    let twice = 0;
    const r = () => removed++;
    const t = () => twice++;
    c.addEventListener("abort", r);
    c.addEventListener("abort", t);
    c.addEventListener("abort", t);
    c.removeEventListener("abort", r);
    c.abort();
    assert.equal(removed, 0);
    assert.equal(twice, 1);
  });

  test("a listener added after the abort never runs; the default reason is an AbortError", () => {
    const c = new RequestCancel();
    c.abort();
    let late = 0;
    c.addEventListener("abort", () => late++);
    assert.equal(late, 0);
    assert.ok(c.signal.reason instanceof DOMException);
    assert.equal((c.signal.reason as DOMException).name, "AbortError");
  });

  test("a throwing listener does not stop the others; its error is thrown once all have run", () => {
    const c = new RequestCancel();
    let after = 0;
    c.addEventListener("abort", () => {
      throw new Error("listener failed");
    });
    c.addEventListener("abort", () => after++);
    assert.throws(() => c.abort(), /listener failed/);
    assert.equal(after, 1);
    assert.equal(c.signal.aborted, true);
  });

  test("an AbortSignal is a CancelSignal too (the SDK hands one to the handlers it calls)", () => {
    const ac = new AbortController();
    const signal: CancelSignal = ac.signal;
    let fired = 0;
    signal.addEventListener("abort", () => fired++, { once: true });
    ac.abort("x");
    assert.equal(fired, 1);
    assert.equal(signal.reason, "x");
  });
});
