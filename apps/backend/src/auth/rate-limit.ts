// Failed sign-ins, counted per key (a username, a client address) in a sliding window (pure, with
// the clock passed in). Kept in memory: a restart forgets them, which costs an attacker a restart
// of the board per 5 guesses.

export interface FailureLimitOptions {
  max: number;
  windowMs: number;
}

export const LOGIN_LIMIT: FailureLimitOptions = { max: 5, windowMs: 15 * 60_000 };

export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly options: FailureLimitOptions = LOGIN_LIMIT) {}

  /** Seconds until the first of `keys` may try again, or 0 when none is blocked. */
  retryAfterSeconds(keys: readonly string[], now: number): number {
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.options.max) {
        const oldest = recent[recent.length - this.options.max]!;
        wait = Math.max(wait, Math.ceil((oldest + this.options.windowMs - now) / 1000));
      }
    }
    return wait;
  }

  fail(keys: readonly string[], now: number): void {
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
  }

  /** A successful sign-in clears its username's count (an address keeps its own). */
  clear(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => t > now - this.options.windowMs);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }
}
