import type { MessageAppended } from "@kandev/protocol";

/**
 * How long streamed text of one message gathers before it goes to browsers as one frame: about the
 * rate a person reads and a browser paints, and long enough that an agent streaming a token at a
 * time costs one frame per window instead of one per token.
 */
export const APPEND_WINDOW_MS = 30;

interface Batch {
  frame: MessageAppended;
  /** When the batch goes out if nothing else about its session or task sends it first. */
  due: number;
}

/**
 * Joins the streamed appends of each message into at most one `session.message.appended` frame per
 * window. Pure: the caller passes the clock in and sends what comes out; it arms one timer for
 * `nextDue()` and, before any other frame about a session or task, sends `take(...)` so a client
 * never sees a delta after a frame that was produced after it.
 */
export class AppendBatcher {
  /** Pending batches by message id, in the order their first append came. */
  private readonly pending = new Map<string, Batch>();

  constructor(private readonly windowMs = APPEND_WINDOW_MS) {}

  get size(): number {
    return this.pending.size;
  }

  /**
   * Takes one append made at `now`. It joins its message's batch (sent at the window's end); the
   * returned frames go out at once: only a batch the append does not continue (its offset is not
   * where the batch ends, so the message changed in between), which must not be joined to it.
   */
  add(append: MessageAppended, now: number): MessageAppended[] {
    const batch = this.pending.get(append.message_id);
    if (batch === undefined) {
      this.pending.set(append.message_id, { frame: { ...append }, due: now + this.windowMs });
      return [];
    }
    if (batch.frame.offset + batch.frame.text.length === append.offset) {
      batch.frame.text += append.text;
      return [];
    }
    this.pending.delete(append.message_id);
    this.pending.set(append.message_id, { frame: { ...append }, due: batch.due });
    return [batch.frame];
  }

  /** Removes and returns the batches whose window has ended by `now`, oldest first. */
  due(now: number): MessageAppended[] {
    return this.take((_frame, due) => due <= now);
  }

  /** Removes and returns the batches `wanted` picks (e.g. one session's), oldest first. */
  take(wanted: (frame: MessageAppended, due: number) => boolean): MessageAppended[] {
    const out: MessageAppended[] = [];
    for (const [id, batch] of this.pending) {
      if (!wanted(batch.frame, batch.due)) continue;
      this.pending.delete(id);
      out.push(batch.frame);
    }
    return out;
  }

  /** When the earliest pending batch is due, or null when nothing waits (no timer needed). */
  nextDue(): number | null {
    let next: number | null = null;
    for (const batch of this.pending.values()) if (next === null || batch.due < next) next = batch.due;
    return next;
  }
}
