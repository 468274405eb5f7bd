import type { ClarificationStatus, Resolution } from "@kandev/protocol";
import { isStorageUnavailable } from "../db/errors.js";
import type { Logger } from "../logger.js";

/** A settle that was decided but could not be written yet. */
export interface PendingSettle {
  status: ClarificationStatus;
  resolution: Resolution;
  extra: (meta: Record<string, unknown>) => Record<string, unknown>;
}

export interface DeferredSettlesOptions {
  /** Writes one settle; throws what the database throws. */
  apply: (pendingId: string, settle: PendingSettle) => void;
  logger: Logger;
  retryMs?: number;
}

/**
 * Settles decided while the database could not take them (locked by another program, disk full).
 * The outcome already happened on the wire (the agent got its answer), so it is kept in order and
 * written as soon as the database takes writes again, instead of being lost. In memory only: a
 * crash while the database is unavailable loses them (the restart then reads agent_disconnected).
 */
export class DeferredSettles {
  private readonly queue = new Map<string, PendingSettle>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: DeferredSettlesOptions) {}

  get size(): number {
    return this.queue.size;
  }

  get(pendingId: string): PendingSettle | undefined {
    return this.queue.get(pendingId);
  }

  defer(pendingId: string, settle: PendingSettle): void {
    this.queue.set(pendingId, settle);
    this.schedule();
  }

  /**
   * The same outcome arriving twice (agentctl's settle event, then the success of the forwarded
   * answer) may add what the operator chose; any other second settle loses (first settle wins).
   * Returns true when the deferred settle was amended.
   */
  amend(pendingId: string, status: ClarificationStatus, resolution: Resolution, extra: PendingSettle["extra"]): boolean {
    const current = this.queue.get(pendingId);
    if (current === undefined || current.status !== status || current.resolution.by !== resolution.by) return false;
    if (current.resolution.answers !== undefined || resolution.answers === undefined) return false;
    this.queue.set(pendingId, {
      status,
      resolution: { ...current.resolution, answers: resolution.answers },
      extra: (m) => extra(current.extra(m)),
    });
    return true;
  }

  /** Stops retrying; whatever is still queued is logged as lost. */
  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.size > 0) {
      this.options.logger.error("clarification outcomes never reached the database", { pending_ids: [...this.queue.keys()] });
    }
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.options.retryMs ?? 250);
    this.timer.unref();
  }

  /** Writes queued settles in the order they were decided; stops at the first that still cannot be written. */
  flush(): void {
    for (const [pendingId, settle] of this.queue) {
      try {
        this.options.apply(pendingId, settle);
        this.queue.delete(pendingId);
        this.options.logger.info("a deferred clarification outcome was written", { pending_id: pendingId, status: settle.status });
      } catch (err) {
        if (isStorageUnavailable(err)) break;
        this.queue.delete(pendingId);
        this.options.logger.error("a deferred clarification outcome failed for good", { pending_id: pendingId, error: err instanceof Error ? err.message : String(err) });
      }
    }
    if (this.queue.size > 0) this.schedule();
  }
}
