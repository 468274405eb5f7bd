import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { floorFirst, pacedBlocks, pacing, seededRandom, thinkTimes } from "./plan.js";

describe("pacing", () => {
  test("think time spreads `rate` questions per second over the sessions", () => {
    assert.equal(pacing(1, 200, 100, 30).thinkMs, 10);
    assert.equal(pacing(50, 200, 100, 30).thinkMs, 500);
  });
  test("round trips are capped to about maxSeconds, never below 20 nor above the run's", () => {
    assert.equal(pacing(1, 200, 100, 30).roundTrips, 200, "2 s fits");
    assert.equal(pacing(50, 200, 100, 30).roundTrips, 60, "60 x 0.5 s = 30 s");
    assert.equal(pacing(50, 200, 10, 30).roundTrips, 20, "the floor of 20");
    assert.equal(pacing(50, 10, 100, 30).roundTrips, 10, "never more than the run's");
  });
  test("a rate of zero or less is refused", () => {
    assert.throws(() => pacing(1, 10, 0, 30), /positive rate/);
  });
});

describe("pacedBlocks and floorFirst", () => {
  test("the pass splits into up to 6 blocks of at least 20 round trips, adding up to the whole", () => {
    assert.deepEqual(pacedBlocks(120), [20, 20, 20, 20, 20, 20], "50 sessions, 60 s");
    assert.deepEqual(pacedBlocks(200), [34, 34, 33, 33, 33, 33]);
    assert.deepEqual(pacedBlocks(60), [20, 20, 20]);
    assert.deepEqual(pacedBlocks(59), [30, 29], "never a block under 20");
    assert.deepEqual(pacedBlocks(20), [20]);
    assert.deepEqual(pacedBlocks(7), [7], "a short pass is one block");
    for (const n of [1, 19, 41, 137, 1000])
      assert.equal(
        pacedBlocks(n).reduce((a, b) => a + b, 0),
        n,
      );
  });
  test("anything but a positive whole number of round trips is refused", () => {
    for (const bad of [0, -1, 2.5, Number.NaN]) assert.throws(() => pacedBlocks(bad), RangeError);
  });
  test("the sides take turns going first, so neither always sees the later half of a block pair", () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5].map(floorFirst), [true, false, true, false, true, false]);
  });
});

describe("seededRandom and thinkTimes", () => {
  test("the same seed gives the same sequence, in [0, 1)", () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const xs = Array.from({ length: 1000 }, () => a());
    assert.deepEqual(
      xs.slice(0, 5),
      Array.from({ length: 5 }, () => b()),
    );
    assert.ok(xs.every((x) => x >= 0 && x < 1));
    assert.notDeepEqual(xs.slice(0, 5), Array.from({ length: 5 }, seededRandom(8)));
  });
  test("think times average the mean, never exceed 5x it, and are spread out", () => {
    const next = thinkTimes(100, 1);
    const xs = Array.from({ length: 20_000 }, next);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    assert.ok(mean > 95 && mean < 105, `mean ${mean}`);
    assert.ok(xs.every((x) => x >= 0 && x <= 500));
    assert.ok(xs.filter((x) => x < 50).length > 0.35 * xs.length, "an exponential: many short waits");
  });
});
