import { test, describe } from "node:test";
import assert from "node:assert/strict";
import type { SessionUsage } from "@kandev/protocol";
import { usageWriteDelay, UsageWrites } from "./usage-writes.js";

/** A clock the test moves by hand, with timers it fires itself. */
function fakeClock() {
  let now = 0;
  const timers: Array<{ at: number; run: () => void; cancelled: boolean }> = [];
  return {
    clock: {
      now: () => now,
      schedule: (run: () => void, ms: number) => {
        const t = { at: now + ms, run, cancelled: false };
        timers.push(t);
        return { cancel: () => (t.cancelled = true) };
      },
    },
    advance(ms: number) {
      now += ms;
      for (const t of timers.filter((x) => !x.cancelled && x.at <= now)) {
        t.cancelled = true;
        t.run();
      }
    },
    armed: () => timers.filter((t) => !t.cancelled).length,
  };
}

const u = (used: number): SessionUsage => ({ used, size: 100 });

describe("usage write coalescing", () => {
  test("the rule: the first write is at once, later ones wait out the interval", () => {
    assert.equal(usageWriteDelay(null, 5000), 0);
    assert.equal(usageWriteDelay(1000, 1500), 1500);
    assert.equal(usageWriteDelay(1000, 3000), 0);
    assert.equal(usageWriteDelay(1000, 9000), 0);
  });

  test("a burst is one write now and one with the latest value once the interval is over", () => {
    const c = fakeClock();
    const writes: Array<[string, number]> = [];
    const w = new UsageWrites(c.clock, (s, usage) => writes.push([s, usage.used]));
    for (let i = 1; i <= 10; i++) w.offer("s", u(i));
    assert.deepEqual(writes, [["s", 1]]);
    assert.equal(c.armed(), 1, "one timer for the whole burst");
    c.advance(1999);
    assert.deepEqual(writes, [["s", 1]]);
    c.advance(1);
    assert.deepEqual(writes, [
      ["s", 1],
      ["s", 10],
    ]);
  });

  test("the turn's end writes what is held at once and disarms the timer", () => {
    const c = fakeClock();
    const writes: number[] = [];
    const w = new UsageWrites(c.clock, (_s, usage) => writes.push(usage.used));
    w.offer("s", u(1));
    w.offer("s", u(2));
    w.flush("s");
    assert.deepEqual(writes, [1, 2]);
    assert.equal(c.armed(), 0);
    w.flush("s");
    assert.deepEqual(writes, [1, 2], "nothing held, nothing written");
  });

  test("sessions are coalesced separately; forget writes what is held", () => {
    const c = fakeClock();
    const writes: Array<[string, number]> = [];
    const w = new UsageWrites(c.clock, (s, usage) => writes.push([s, usage.used]));
    w.offer("a", u(1));
    w.offer("b", u(1));
    w.offer("a", u(2));
    w.forget("a");
    assert.deepEqual(writes, [
      ["a", 1],
      ["b", 1],
      ["a", 2],
    ]);
  });
});
