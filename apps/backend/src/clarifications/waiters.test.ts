import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { KandevWaiters } from "./waiters.js";

const answer = { text: "ok", answer: { answers: [] } };

describe("KandevWaiters", () => {
  test("resolves once; later endings find nothing", async () => {
    const w = new KandevWaiters();
    const p = w.create("a", 60_000, () => ({ text: "late", answer: { answers: [] } }));
    assert.equal(w.join("a"), p, "a repeat joins the same waiter");
    assert.equal(w.resolve("a", answer), true);
    assert.equal(w.resolve("a", answer), false);
    assert.equal(w.reject("a", new Error("x")), false);
    assert.deepEqual(await p, answer);
    assert.equal(w.size, 0);
  });

  test("a timeout ends the waiter with onTimeout's result and removes it", async () => {
    const w = new KandevWaiters();
    let fired = 0;
    // The waiter's timer is unref'd (it must not keep a stopping backend alive); hold the loop here.
    const keepAlive = setTimeout(() => undefined, 5_000);
    const p = w.create("a", 10, () => (fired++, { text: "timed out", answer: { answers: [] } }));
    assert.equal((await p).text, "timed out");
    clearTimeout(keepAlive);
    assert.equal(fired, 1);
    assert.equal(w.has("a"), false);
  });

  test("rejectAll ends every waiter; duplicate ids are refused", async () => {
    const w = new KandevWaiters();
    const a = w.create("a", 60_000, () => answer);
    const b = w.create("b", 60_000, () => answer);
    assert.throws(() => w.create("a", 1, () => answer));
    w.rejectAll(new Error("stopping"));
    await assert.rejects(a, /stopping/);
    await assert.rejects(b, /stopping/);
    assert.equal(w.size, 0);
  });
});
