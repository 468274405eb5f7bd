// The memory figures: RSS of the backend and its agentctl processes at rest, with `pending`
// elicitations held, after settling them, and before/after a long run of round trips.
import { setTimeout as delay } from "node:timers/promises";
import type { ProductBench } from "./product.js";
import type { MemoryResult, RssKb } from "./report.js";

const total = (r: RssKb) => r.backend + r.agentctl;

/**
 * RSS at rest: every second each process runs a full garbage collection and RSS is read; the
 * reading counts once `quietMs` have passed and two readings in a row differ by less than 0.5%
 * (or `maxMs` passed). Without the collections a reading mostly measures how much garbage waits in
 * V8's young generation; without the quiet period it misses V8's memory reducer, which shrinks
 * the heap about 8 s after activity stops (15 MB per process measured here). Either would drown
 * what a thousand pending questions retain.
 */
export async function steadyRss(bench: ProductBench, quietMs: number, maxMs = quietMs + 20_000): Promise<RssKb> {
  const start = Date.now();
  let last: RssKb | null = null;
  let calm = 0;
  for (;;) {
    bench.collectGarbage();
    // V8 hands freed pages back to the OS in the background after a collection.
    await delay(1000);
    const now = bench.rss();
    calm = last !== null && Math.abs(total(now) - total(last)) < 0.005 * total(last) ? calm + 1 : 0;
    const waited = Date.now() - start;
    if ((calm >= 2 && waited >= quietMs) || waited >= maxMs) return now;
    last = now;
  }
}

export interface MemoryPhaseOptions {
  pending: number;
  /**
   * How long each RSS reading waits at rest first (see steadyRss). Past V8's memory reducer (about
   * 8 s) every reading is comparable; --quick reads before it, equally for every reading.
   */
  quietMs: number;
  /** The most each reading may wait for two calm readings in a row. */
  maxMs: number;
  /** Round trips of the "no growth" check (0 skips it), spread over every session. */
  growthRoundTrips: number;
  log: (line: string) => void;
}

/** Runs the memory phase on a warm, idle product bench. */
export async function measureMemory(bench: ProductBench, sessions: number, options: MemoryPhaseOptions): Promise<MemoryResult> {
  const { log } = options;
  const baseline = await steadyRss(bench, options.quietMs, options.maxMs);
  log(`memory: baseline ${total(baseline)} kB; holding ${options.pending} elicitations pending`);
  const held = await bench.hold(options.pending);
  if (held.pendingRecords !== options.pending)
    throw new Error(`expected ${options.pending} pending records, the backend lists ${held.pendingRecords}`);
  const withPending = await steadyRss(bench, options.quietMs, options.maxMs);
  log(`memory: ${total(withPending)} kB with ${options.pending} pending; answering them`);
  const released = await held.release();
  const settled = await steadyRss(bench, options.quietMs, options.maxMs);
  log(`memory: ${total(settled)} kB after settling`);
  let growth: MemoryResult["growth"] = null;
  if (options.growthRoundTrips > 0) {
    const perSession = Math.ceil(options.growthRoundTrips / sessions);
    const before = settled;
    log(`memory: ${perSession * sessions} round trips for the growth check`);
    const rec = await bench.run(sessions, perSession);
    if (rec.errors.length > 0) throw new Error(`growth run failed: ${rec.errors.slice(0, 3).join("; ")}`);
    const after = await steadyRss(bench, options.quietMs, options.maxMs);
    growth = { roundTrips: rec.roundTrips, before, after };
    log(`memory: ${total(after)} kB after ${rec.roundTrips} round trips`);
  }
  return { pending: options.pending, sessions, baseline, withPending, settled, ...released, growth };
}
