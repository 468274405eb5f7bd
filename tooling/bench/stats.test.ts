import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { latenciesAfterCauses, percentile, ratio, round, roundPercentiles, summarize } from "./stats.js";

describe("percentile (nearest rank)", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
  test("of 1..100 is the rank itself", () => {
    assert.deepEqual(
      [50, 95, 99, 100].map((p) => percentile(hundred, p)),
      [50, 95, 99, 100],
    );
  });
  test("is always an observed sample, rounding the rank up", () => {
    assert.equal(percentile([10, 20, 30], 50), 20);
    assert.equal(percentile([10, 20, 30], 99), 30);
    assert.equal(percentile([10, 20, 30, 40], 50), 20);
    assert.equal(percentile([7], 1), 7);
  });
  test("refuses an empty set and out-of-range percentiles", () => {
    assert.throws(() => percentile([], 50), /empty/);
    assert.throws(() => percentile([1], 0), /\(0, 100\]/);
    assert.throws(() => percentile([1], 101), /\(0, 100\]/);
  });
});

describe("summarize", () => {
  test("sorts the samples itself and reports p50/p95/p99/max", () => {
    const samples = Array.from({ length: 1000 }, (_, i) => 1000 - i); // 1000..1, reversed
    assert.deepEqual(summarize(samples), { p50: 500, p95: 950, p99: 990, max: 1000 });
  });
  test("a single slow sample shows in max and, with few samples, in p99", () => {
    const s = summarize([1, 1, 1, 1, 1, 1, 1, 1, 1, 50]);
    assert.deepEqual([s.p50, s.p95, s.p99, s.max], [1, 50, 50, 50]);
  });
  test("rejects NaN and infinities instead of sorting them somewhere", () => {
    assert.throws(() => summarize([1, NaN]), /finite/);
    assert.throws(() => summarize([Infinity]), /finite/);
    assert.throws(() => summarize([]), /empty/);
  });
});

describe("ratio and rounding", () => {
  test("divides percentile by percentile", () => {
    assert.deepEqual(ratio({ p50: 2, p95: 6, p99: 9, max: 20 }, { p50: 1, p95: 2, p99: 3, max: 10 }), { p50: 2, p95: 3, p99: 3, max: 2 });
  });
  test("a zero floor gives Infinity, 0/0 gives 1", () => {
    assert.deepEqual(ratio({ p50: 0, p95: 1, p99: 1, max: 1 }, { p50: 0, p95: 0, p99: 1, max: 1 }), { p50: 1, p95: Infinity, p99: 1, max: 1 });
  });
  test("round keeps 3 decimals by default", () => {
    assert.equal(round(1.23456), 1.235);
    assert.equal(round(1234.5, 0), 1235);
    assert.deepEqual(roundPercentiles({ p50: 0.12345, p95: 1, p99: 2.0004, max: 3.9996 }), { p50: 0.123, p95: 1, p99: 2, max: 4 });
  });
});

describe("latenciesAfterCauses", () => {
  test("pairs each effect with the latest cause at or before it", () => {
    const causes = [100, 200, 300];
    const effects = [
      { at: 110, done: 115 },
      { at: 250, done: 260 },
      { at: 300, done: 301 },
    ];
    assert.deepEqual(latenciesAfterCauses(causes, effects), [15, 60, 1]);
  });
  test("skips an effect that no cause precedes; causes may come unsorted", () => {
    assert.deepEqual(
      latenciesAfterCauses(
        [50, 10],
        [
          { at: 5, done: 6 },
          { at: 60, done: 70 },
        ],
      ),
      [20],
    );
  });
});
