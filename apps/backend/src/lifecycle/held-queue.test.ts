import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { HeldQueue, type HandleOutcome } from "./held-queue.js";

/** A scheduler whose timers run only when the test says so. */
function manualClock() {
  const timers: Array<{ run: () => void; ms: number; cancelled: boolean }> = [];
  return {
    timers,
    schedule: (run: () => void, ms: number) => {
      const t = { run, ms, cancelled: false };
      timers.push(t);
      return { cancel: () => void (t.cancelled = true) };
    },
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

function setup(storageUp: { value: boolean }) {
  const handled: number[] = [];
  const events: string[] = [];
  const clock = manualClock();
  const queue = new HeldQueue<number>({
    handle: (n): HandleOutcome => {
      if (!storageUp.value) return "retry";
      handled.push(n);
      return "done";
    },
    schedule: clock.schedule,
    onHold: (n) => events.push(`hold ${n}`),
    onResume: (written) => events.push(`resume ${written}`),
    minDelayMs: 100,
    maxDelayMs: 400,
  });
  return { queue, handled, events, clock };
}

describe("HeldQueue", () => {
  test("items are handled at once while storage takes them; nothing is armed", () => {
    const up = { value: true };
    const { queue, handled, clock } = setup(up);
    queue.offer(1);
    queue.offer(2);
    assert.deepEqual(handled, [1, 2]);
    assert.equal(queue.size, 0);
    assert.equal(clock.armed(), 0);
  });

  test("a refused item is held, later ones wait behind it, and all go through in arrival order once storage returns", () => {
    const up = { value: true };
    const { queue, handled, events, clock } = setup(up);
    queue.offer(1);
    up.value = false;
    queue.offer(2);
    queue.offer(3);
    up.value = true;
    queue.offer(4); // storage is back, but 2 and 3 are still held: 4 must not overtake them
    assert.deepEqual(handled, [1]);
    assert.equal(queue.size, 3);
    clock.fireNext();
    assert.deepEqual(handled, [1, 2, 3, 4]);
    assert.equal(queue.size, 0);
    assert.deepEqual(events, ["hold 2", "resume 3"]);
  });

  test("retries back off (doubling to the ceiling) and reset after a success", () => {
    const up = { value: false };
    const { queue, clock } = setup(up);
    queue.offer(1);
    assert.deepEqual([clock.fireNext(), clock.fireNext(), clock.fireNext(), clock.fireNext()], [100, 200, 400, 400]);
    up.value = true;
    clock.fireNext();
    assert.equal(queue.size, 0);
    up.value = false;
    queue.offer(2);
    assert.equal(clock.fireNext(), 100);
  });

  test("drain() hands over what it can now and stops at the first refusal, keeping it first", () => {
    let budget = 2;
    const handled: number[] = [];
    const clock = manualClock();
    const queue = new HeldQueue<number>({
      handle: (n) => {
        if (budget === 0) return "retry";
        budget -= 1;
        handled.push(n);
        return "done";
      },
      schedule: clock.schedule,
    });
    budget = 0;
    queue.offer(1);
    queue.offer(2);
    queue.offer(3);
    budget = 2;
    assert.equal(queue.drain(), false);
    assert.deepEqual(handled, [1, 2]);
    assert.equal(queue.size, 1);
    budget = 1;
    assert.equal(queue.drain(), true);
    assert.deepEqual(handled, [1, 2, 3]);
  });

  test("drain() with nothing held does nothing: no resume is reported, nothing is armed", () => {
    const up = { value: true };
    const { queue, events, clock } = setup(up);
    assert.equal(queue.drain(), true);
    queue.offer(1);
    assert.equal(queue.drain(), true);
    assert.deepEqual(events, []);
    assert.equal(clock.armed(), 0);
  });

  test("close() gives up: returns what was held, cancels the retry, ignores later offers", () => {
    const up = { value: false };
    const { queue, handled, clock } = setup(up);
    queue.offer(1);
    queue.offer(2);
    assert.deepEqual(queue.close(), [1, 2]);
    assert.equal(clock.armed(), 0);
    up.value = true;
    queue.offer(3);
    assert.deepEqual(handled, []);
  });
});
