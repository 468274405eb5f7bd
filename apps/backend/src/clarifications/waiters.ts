import type { KandevAskResult } from "@kandev/protocol";

/** setTimeout fires at once for delays above this (about 24.8 days), so longer waits are clamped. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Entry {
  promise: Promise<KandevAskResult>;
  resolve: (result: KandevAskResult) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The in-memory side of ask-tool clarifications: one waiter per pending record, which the
 * agentctl request handler awaits. Only ask-tool records have one (an elicitation's waiter is
 * agentctl's ACP request). Each waiter ends exactly once: answered, timed out or rejected; the
 * entry is removed before its promise settles, so a second ending finds nothing.
 */
export class KandevWaiters {
  private readonly entries = new Map<string, Entry>();

  /**
   * Starts waiting for `pendingId`. After `waitMs` the waiter ends with `onTimeout()`'s result
   * (the caller settles the record there as timed_out).
   */
  create(pendingId: string, waitMs: number, onTimeout: () => KandevAskResult): Promise<KandevAskResult> {
    if (this.entries.has(pendingId)) throw new Error(`a waiter for ${pendingId} exists already`);
    let resolve!: (result: KandevAskResult) => void;
    let reject!: (err: Error) => void;
    const promise = new Promise<KandevAskResult>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const timer = setTimeout(
      () => {
        if (this.take(pendingId) === undefined) return;
        try {
          resolve(onTimeout());
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      },
      Math.min(Math.max(waitMs, 0), MAX_TIMER_MS),
    );
    // A pending question must not keep a stopping backend alive.
    timer.unref();
    this.entries.set(pendingId, { promise, resolve, reject, timer });
    return promise;
  }

  /** The waiter of a pending record, for a second identical call to join (D4 dedup). */
  join(pendingId: string): Promise<KandevAskResult> | undefined {
    return this.entries.get(pendingId)?.promise;
  }

  has(pendingId: string): boolean {
    return this.entries.has(pendingId);
  }

  /** Ends the waiter with the operator's answer; false when there is none (already ended). */
  resolve(pendingId: string, result: KandevAskResult): boolean {
    const entry = this.take(pendingId);
    entry?.resolve(result);
    return entry !== undefined;
  }

  /** Ends the waiter with an error the agent sees as a tool error; false when there is none. */
  reject(pendingId: string, err: Error): boolean {
    const entry = this.take(pendingId);
    entry?.reject(err);
    return entry !== undefined;
  }

  /** Backend shutdown: every waiter ends with `err` (the records stay for the next start to reconcile). */
  rejectAll(err: Error): void {
    for (const id of [...this.entries.keys()]) this.reject(id, err);
  }

  get size(): number {
    return this.entries.size;
  }

  private take(pendingId: string): Entry | undefined {
    const entry = this.entries.get(pendingId);
    if (entry === undefined) return undefined;
    this.entries.delete(pendingId);
    clearTimeout(entry.timer);
    return entry;
  }
}
