// The one retry policy for writes the store refused, driven by a scheduler whose timers run only
// when the test says so: no sleeps, no real database.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { RefusedWrites } from "./refused-writes.js";

class Refused extends Error {}

/** A scheduler whose timers run only when the test says so. */
function manualClock() {
  const timers: Array<{ run: () => void; ms: number; cancelled: boolean }> = [];
  return {
    schedule: (run: () => void, ms: number) => {
      const t = { run, ms, cancelled: false };
      timers.push(t);
      return {
        cancel: () => {
          t.cancelled = true;
        },
      };
    },
    /** Runs the armed retry; returns its delay. */
    fireNext(): number {
      const t = timers.find((x) => !x.cancelled);
      assert.ok(t !== undefined, "a retry is armed");
      t.cancelled = true;
      t.run();
      return t.ms;
    },
    armed: () => timers.filter((x) => !x.cancelled).length,
  };
}

/** Writes of numbers into `written`, refused while `store.up` is false. */
function setup() {
  const store = { up: true };
  const written: number[] = [];
  const events: string[] = [];
  const clock = manualClock();
  const writes = new RefusedWrites({
    schedule: clock.schedule,
    isRefusal: (err) => err instanceof Refused,
    onHold: (label) => events.push(`hold ${label}`),
    onResume: (count) => events.push(`resume ${count}`),
    onError: (label) => events.push(`error ${label}`),
    onLost: (labels) => events.push(`lost ${labels.join(",")}`),
    minDelayMs: 100,
    maxDelayMs: 400,
  });
  const write = (n: number) =>
    writes.write(String(n), () => {
      if (!store.up) throw new Refused("SQLITE_BUSY");
      written.push(n);
    });
  return { store, written, events, clock, writes, write };
}

describe("RefusedWrites: the one retry policy for refused writes", () => {
  test("writes run at once while the store takes them; nothing is armed", () => {
    const { written, clock, writes, write } = setup();
    assert.deepEqual([write(1), write(2)], ["done", "done"]);
    assert.deepEqual(written, [1, 2]);
    assert.deepEqual([writes.size, clock.armed()], [0, 0]);
  });

  test("refused writes are retried in arrival order, and a write arriving meanwhile waits behind them even when the store is back", () => {
    const { store, written, events, clock, writes, write } = setup();
    write(1);
    store.up = false;
    assert.deepEqual([write(2), write(3)], ["held", "held"]);
    store.up = true;
    assert.equal(write(4), "held", "the store is back, but 2 and 3 wait: 4 must not overtake them");
    assert.deepEqual(written, [1]);
    assert.equal(writes.size, 3);
    clock.fireNext();
    assert.deepEqual(written, [1, 2, 3, 4]);
    assert.equal(writes.size, 0);
    assert.deepEqual(events, ["hold 2", "resume 3"]);
  });

  test("retries back off, doubling to the ceiling, and start over after the store took them", () => {
    const { store, clock, writes, write } = setup();
    store.up = false;
    write(1);
    assert.deepEqual([clock.fireNext(), clock.fireNext(), clock.fireNext(), clock.fireNext()], [100, 200, 400, 400]);
    store.up = true;
    clock.fireNext();
    assert.equal(writes.size, 0);
    store.up = false;
    write(2);
    assert.equal(clock.fireNext(), 100);
  });

  test("drain writes what the store takes now and stops at the first refusal, keeping it first", () => {
    const { store, written, writes, write } = setup();
    store.up = false;
    write(1);
    write(2);
    store.up = true;
    assert.equal(writes.drain(), true);
    assert.deepEqual(written, [1, 2]);
    assert.equal(writes.drain(), true, "nothing held: nothing to do");
  });

  test("a write that fails for another reason is reported and dropped; the ones behind it still go", () => {
    const { store, written, events, clock, writes } = setup();
    store.up = false;
    writes.write("a", () => {
      if (!store.up) throw new Refused("SQLITE_BUSY");
      throw new Error("a bug");
    });
    writes.write("b", () => void written.push(2));
    store.up = true;
    clock.fireNext();
    assert.deepEqual(written, [2]);
    assert.deepEqual(events, ["hold a", "error a", "resume 2"]);
  });

  test("shutdown tries everything held once more, in order; what is still refused is lost and nothing runs after it", () => {
    const taken = setup();
    taken.store.up = false;
    taken.write(1);
    taken.write(2);
    taken.store.up = true;
    assert.deepEqual(taken.writes.close(), []);
    assert.deepEqual(taken.written, [1, 2], "written by the last try");

    const refused = setup();
    refused.store.up = false;
    refused.write(1);
    refused.write(2);
    assert.deepEqual(refused.writes.close(), ["1", "2"]);
    assert.equal(refused.clock.armed(), 0, "no retry outlives the shutdown");
    refused.store.up = true;
    assert.equal(refused.write(3), "lost");
    assert.deepEqual(refused.written, []);
    assert.deepEqual(refused.events, ["hold 1", "lost 1,2", "lost 3"]);
  });
});
