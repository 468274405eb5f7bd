/** Reconnect delays: exponential from `initialMs`, capped at `maxMs`, with jitter so many tabs do not reconnect in lockstep. */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 10_000 };

/**
 * The delay before reconnect attempt `attempt` (0 for the first retry). `random` is in [0, 1);
 * the result lies in [half, full] of the capped exponential step.
 */
export function reconnectDelay(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF, random = Math.random): number {
  const step = Math.min(options.maxMs, options.initialMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.round(step / 2 + (step / 2) * random());
}
