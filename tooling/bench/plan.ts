// How each run is paced. Pure, so the arithmetic is tested.

/** The paced latency pass of one run: the operator's think time and the round trips per session. */
export interface Pacing {
  thinkMs: number;
  roundTrips: number;
}

/**
 * Latency is measured below saturation: N closed-loop sessions answered at once always saturate
 * the slowest process, and their latency is then just N / throughput (Little's law), whatever the
 * product does per message. So the latency pass offers at most `rate` questions per second across
 * the N sessions: each session's operator thinks N / rate seconds before answering. Its round trips
 * are capped so the pass lasts about `maxSeconds` (but never fewer than 20 per session).
 */
export function pacing(sessions: number, roundTrips: number, rate: number, maxSeconds: number): Pacing {
  if (!(rate > 0)) throw new RangeError(`pacing needs a positive rate, got ${rate}`);
  const thinkMs = (1000 * sessions) / rate;
  const fit = Math.floor((maxSeconds * 1000) / thinkMs);
  return { thinkMs, roundTrips: Math.min(roundTrips, Math.max(20, fit)) };
}

/**
 * The paced pass in blocks, the two sides taking turns (floor then product in even blocks, product
 * then floor in odd ones), so both sample the same stretch of the machine's time: a p99 rests on
 * the few slowest samples, which come in clusters a shared host produces now and then, and two
 * passes one after the other would each see a different minute. Blocks of at least
 * `minPerBlock` round trips per session (each block starts new turns), at most `maxBlocks`; the
 * sizes add up to `roundTrips`.
 */
export function pacedBlocks(roundTrips: number, minPerBlock = 20, maxBlocks = 6): number[] {
  if (!Number.isInteger(roundTrips) || roundTrips < 1)
    throw new RangeError(`pacedBlocks needs a positive whole number of round trips, got ${roundTrips}`);
  const blocks = Math.max(1, Math.min(maxBlocks, Math.floor(roundTrips / minPerBlock)));
  const base = Math.floor(roundTrips / blocks);
  return Array.from({ length: blocks }, (_, i) => base + (i < roundTrips % blocks ? 1 : 0));
}

/** Which side goes first in paced block `i` (see pacedBlocks). */
export function floorFirst(i: number): boolean {
  return i % 2 === 0;
}

/** A small seeded PRNG (mulberry32): uniform in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Think times with mean `meanMs`, exponentially distributed (capped at 5x the mean), so the
 * sessions' questions arrive spread out like independent operators' rather than in lockstep
 * bursts; seeded, so the product and the floor see the same sequence.
 */
export function thinkTimes(meanMs: number, seed: number): () => number {
  const random = seededRandom(seed);
  return () => Math.min(5 * meanMs, -meanMs * Math.log(1 - random()));
}

/** How the operator paces a run: think time before each answer, and the gap between sessions' starts. */
export interface Pace {
  thinkMs: () => number;
  /** Session i starts its turn i x startGapMs after the first, so they do not ask in lockstep. */
  startGapMs: number;
}

/** The pace of a latency pass: exponential think times of mean `thinkMs`, starts spread over one mean. */
export function paceFor(p: Pacing, sessions: number, seed: number): Pace {
  return { thinkMs: thinkTimes(p.thinkMs, seed), startGapMs: p.thinkMs / sessions };
}
