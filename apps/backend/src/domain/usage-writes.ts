// Usage updates can come several times a second (the Claude bridge sends one after every model
// call). Each write is a row update plus a session.updated and a task.updated push, so they are
// coalesced: per session at most one write per USAGE_WRITE_INTERVAL_MS, the latest value wins, and
// what is held is written at once when the turn ends. The clock and the timer are injected, so the
// rule is tested without time passing (usage-writes.test.ts).
import type { SessionUsage } from "@kandev/protocol";

export const USAGE_WRITE_INTERVAL_MS = 2000;

/** How long a usage update that arrives at `nowMs` waits: 0 writes it now. */
export function usageWriteDelay(lastWriteMs: number | null, nowMs: number, intervalMs = USAGE_WRITE_INTERVAL_MS): number {
  if (lastWriteMs === null) return 0;
  return Math.max(0, lastWriteMs + intervalMs - nowMs);
}

export interface UsageClock {
  now: () => number;
  schedule: (run: () => void, ms: number) => { cancel: () => void };
}

interface Slot {
  lastWriteMs: number | null;
  held: SessionUsage | null;
  timer: { cancel: () => void } | null;
}

/** The coalescing rule's state per session; `write` does the I/O. */
export class UsageWrites {
  private readonly slots = new Map<string, Slot>();

  constructor(
    private readonly clock: UsageClock,
    private readonly write: (sessionId: string, usage: SessionUsage) => void,
    private readonly intervalMs = USAGE_WRITE_INTERVAL_MS,
  ) {}

  /** A usage update: written now if the last write is old enough, else held (the latest wins). */
  offer(sessionId: string, usage: SessionUsage): void {
    const slot = this.slots.get(sessionId) ?? { lastWriteMs: null, held: null, timer: null };
    this.slots.set(sessionId, slot);
    const delay = usageWriteDelay(slot.lastWriteMs, this.clock.now(), this.intervalMs);
    if (delay === 0 && slot.timer === null) {
      this.writeNow(sessionId, slot, usage);
      return;
    }
    slot.held = usage;
    slot.timer ??= this.clock.schedule(() => {
      slot.timer = null;
      this.flush(sessionId);
    }, delay);
  }

  /** Writes what is held now (the turn ended). */
  flush(sessionId: string): void {
    const slot = this.slots.get(sessionId);
    if (slot === undefined || slot.held === null) return;
    slot.timer?.cancel();
    slot.timer = null;
    this.writeNow(sessionId, slot, slot.held);
  }

  /** The session's agent is gone: what is held is written, the slot dropped. */
  forget(sessionId: string): void {
    this.flush(sessionId);
    this.slots.delete(sessionId);
  }

  private writeNow(sessionId: string, slot: Slot, usage: SessionUsage): void {
    slot.held = null;
    slot.lastWriteMs = this.clock.now();
    this.write(sessionId, usage);
  }
}
