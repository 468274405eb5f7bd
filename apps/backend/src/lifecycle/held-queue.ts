/**
 * Keeps items in arrival order while they cannot be handled yet (the database refuses writes), and
 * retries the oldest with a growing delay until it goes through, then the rest behind it. An item
 * that arrives while others are held waits behind them, so order is never broken. Timers are
 * injected; see held-queue.test.ts.
 */
export type HandleOutcome = "done" | "retry";

export interface HeldQueueOptions<T> {
  /** Handles one item: "retry" means nothing of it happened and it should be tried again later. */
  handle: (item: T) => HandleOutcome;
  schedule: (run: () => void, ms: number) => { cancel: () => void };
  /** Called when the queue starts holding (with the first held item) and when it is empty again. */
  onHold?: (item: T) => void;
  onResume?: (written: number) => void;
  /** First retry delay and its ceiling (doubles each failed attempt). */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export class HeldQueue<T> {
  private readonly items: T[] = [];
  private timer: { cancel: () => void } | null = null;
  private delayMs: number;
  private heldSince = 0;
  private closed = false;

  constructor(private readonly options: HeldQueueOptions<T>) {
    this.delayMs = options.minDelayMs ?? 250;
  }

  get size(): number {
    return this.items.length;
  }

  /** Handles `item` now if nothing is held, otherwise (or if it must wait) keeps it in order. */
  offer(item: T): void {
    if (this.closed) return;
    if (this.items.length > 0) {
      this.items.push(item);
      return;
    }
    if (this.options.handle(item) === "done") return;
    this.items.push(item);
    this.heldSince = 0;
    this.options.onHold?.(item);
    this.arm();
  }

  /**
   * Tries to hand everything held over now; true when nothing is held any more. With nothing held
   * it does nothing (no `onResume`): callers drain before every event that must not overtake held ones.
   */
  drain(): boolean {
    if (this.closed || this.items.length === 0) return this.items.length === 0;
    while (this.items.length > 0) {
      if (this.options.handle(this.items[0] as T) === "retry") {
        this.arm();
        return false;
      }
      this.items.shift();
      this.heldSince += 1;
    }
    this.timer?.cancel();
    this.timer = null;
    this.delayMs = this.options.minDelayMs ?? 250;
    this.options.onResume?.(this.heldSince);
    this.heldSince = 0;
    return true;
  }

  /** Stops retrying; returns what was still held (given up). */
  close(): T[] {
    this.closed = true;
    this.timer?.cancel();
    this.timer = null;
    return this.items.splice(0);
  }

  private arm(): void {
    this.timer?.cancel();
    const delay = this.delayMs;
    this.delayMs = Math.min(delay * 2, this.options.maxDelayMs ?? 8_000);
    this.timer = this.options.schedule(() => {
      this.timer = null;
      this.drain();
    }, delay);
  }
}
