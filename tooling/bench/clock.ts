// The benchmark's clock, the same expression the mock agent and the floor's relay agent use, so
// times taken in different processes of one machine can be subtracted (sub-ms resolution).

/** Milliseconds since the epoch with sub-millisecond resolution. */
export function benchNow(): number {
  return performance.timeOrigin + performance.now();
}
