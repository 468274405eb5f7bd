/**
 * The one answer to "the store refused a write (SQLITE_BUSY/locked, disk full): try again".
 *
 * Some writes record something that already happened outside the board (an agent event, an
 * answer the agent already got, an agentctl that died) and so may not be dropped or failed back to
 * anyone. They go through here. The policy, for every caller alike:
 * - A write runs at once while nothing is held. When the store refuses it (`isRefusal`), nothing of
 *   it happened (each write is one transaction); it is held.
 * - Held writes keep their arrival order, and a write that arrives while any is held waits behind
 *   them, so a later fact never overtakes an earlier one (a settle never beats the question).
 * - The oldest is retried after 250 ms, doubling to at most 8 s, until it goes through; the ones
 *   behind it then go at once.
 * - A write that fails for any other reason is a bug, not the store's state: retrying would fail
 *   the same way, so it is reported (`onError`) and dropped, and the queue moves on.
 * - Shutdown (`close`): one last try of everything held, in order; what is still refused is
 *   reported lost (`onLost`) and nothing runs after it.
 * Timers are injected, so the policy is tested without waiting (refused-writes.test.ts).
 */

export interface RefusedWritesOptions {
  /** Arms a timer; returns its cancel. */
  schedule: (run: () => void, ms: number) => { cancel: () => void };
  /** Whether `err` means "the store cannot take writes right now" (worth the same write later). */
  isRefusal: (err: unknown) => boolean;
  /** The store began refusing: `label` is the first write held. */
  onHold?: (label: string, err: unknown) => void;
  /** Everything held was written (`count` writes). */
  onResume?: (count: number) => void;
  /** A write failed for another reason and was dropped. */
  onError?: (label: string, err: unknown) => void;
  /** Shutdown found these writes still refused; they are lost. */
  onLost?: (labels: string[]) => void;
  minDelayMs?: number;
  maxDelayMs?: number;
}

/** The retry delays of the one policy. */
export const RETRY_MIN_DELAY_MS = 250;
export const RETRY_MAX_DELAY_MS = 8_000;

interface HeldWrite {
  label: string;
  run: () => void;
}

export class RefusedWrites {
  private readonly held: HeldWrite[] = [];
  private timer: { cancel: () => void } | null = null;
  private delayMs: number;
  private writtenSinceHold = 0;
  private closed = false;

  constructor(private readonly options: RefusedWritesOptions) {
    this.delayMs = options.minDelayMs ?? RETRY_MIN_DELAY_MS;
  }

  /** How many writes wait for the store. */
  get size(): number {
    return this.held.length;
  }

  /**
   * Runs `run` now if nothing is held, else queues it behind what is. Returns "done" when it ran
   * (or failed for good), "held" when it waits for the store. After `close` nothing runs: "lost".
   */
  write(label: string, run: () => void): "done" | "held" | "lost" {
    if (this.closed) {
      this.options.onLost?.([label]);
      return "lost";
    }
    const item = { label, run };
    if (this.held.length > 0) {
      this.held.push(item);
      return "held";
    }
    const refusal = this.attempt(item);
    if (refusal === undefined) return "done";
    this.held.push(item);
    this.writtenSinceHold = 0;
    this.options.onHold?.(label, refusal.err);
    this.arm();
    return "held";
  }

  /**
   * Tries everything held now, oldest first; true when nothing is held any more. Callers whose
   * own write must not overtake held ones drain first.
   */
  drain(): boolean {
    if (this.held.length === 0) return true;
    if (this.closed) return false;
    while (this.held.length > 0) {
      if (this.attempt(this.held[0]!) !== undefined) {
        this.arm();
        return false;
      }
      this.held.shift();
      this.writtenSinceHold += 1;
    }
    this.timer?.cancel();
    this.timer = null;
    this.delayMs = this.options.minDelayMs ?? RETRY_MIN_DELAY_MS;
    this.options.onResume?.(this.writtenSinceHold);
    this.writtenSinceHold = 0;
    return true;
  }

  /** Shutdown: one last try in order, then nothing more; returns the labels that were lost. */
  close(): string[] {
    if (this.closed) return [];
    this.drain();
    this.closed = true;
    this.timer?.cancel();
    this.timer = null;
    const lost = this.held.splice(0).map((w) => w.label);
    if (lost.length > 0) this.options.onLost?.(lost);
    return lost;
  }

  /** Runs one write; returns the refusal when the store refused it, undefined otherwise. */
  private attempt(item: HeldWrite): { err: unknown } | undefined {
    try {
      item.run();
      return undefined;
    } catch (err) {
      if (this.options.isRefusal(err)) return { err };
      this.options.onError?.(item.label, err);
      return undefined;
    }
  }

  private arm(): void {
    this.timer?.cancel();
    const delay = this.delayMs;
    this.delayMs = Math.min(delay * 2, this.options.maxDelayMs ?? RETRY_MAX_DELAY_MS);
    this.timer = this.options.schedule(() => {
      this.timer = null;
      this.drain();
    }, delay);
  }
}
