// Pure statistics for the benchmark: percentiles, summaries and ratios. No I/O.

/** The percentiles every latency figure is reported with, in milliseconds. */
export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/**
 * Nearest-rank percentile (the smallest sample with at least `p`% of the samples at or below it),
 * so every reported figure is a latency that was actually observed. `p` is in (0, 100].
 * Throws on an empty sample set: a figure computed from nothing must not look like zero.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError("percentile of an empty sample set");
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** p50/p95/p99/max of `samples` (any order; NaN and infinities are rejected). */
export function summarize(samples: readonly number[]): Percentiles {
  for (const s of samples) if (!Number.isFinite(s)) throw new RangeError(`not a finite sample: ${s}`);
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: percentile(sorted, 100) };
}

/** Each percentile of `value` divided by the same percentile of `floor` (Infinity over a zero floor). */
export function ratio(value: Percentiles, floor: Percentiles): Percentiles {
  const div = (a: number, b: number) => (b === 0 ? (a === 0 ? 1 : Infinity) : a / b);
  return { p50: div(value.p50, floor.p50), p95: div(value.p95, floor.p95), p99: div(value.p99, floor.p99), max: div(value.max, floor.max) };
}

/** Rounds to `digits` decimals (3 by default: microseconds when the unit is ms). */
export function round(n: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** A Percentiles with every figure rounded. */
export function roundPercentiles(p: Percentiles, digits = 3): Percentiles {
  return { p50: round(p.p50, digits), p95: round(p.p95, digits), p99: round(p.p99, digits), max: round(p.max, digits) };
}

/**
 * Pairs each effect with the latest cause at or before it and returns `done - cause` per effect
 * (effects with no earlier cause are skipped). `at` orders the effect against the causes; `done`
 * is when it counts as finished (e.g. DOM changed at `at`, on screen at `done`).
 */
export function latenciesAfterCauses(causes: readonly number[], effects: ReadonlyArray<{ at: number; done: number }>): number[] {
  const sorted = [...causes].sort((a, b) => a - b);
  const out: number[] = [];
  for (const e of effects) {
    let cause: number | undefined;
    for (const c of sorted) {
      if (c > e.at) break;
      cause = c;
    }
    if (cause !== undefined) out.push(e.done - cause);
  }
  return out;
}
