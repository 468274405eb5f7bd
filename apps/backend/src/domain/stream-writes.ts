/**
 * When streamed agent text goes to disk. Browsers get every chunk at once (as batched deltas, see
 * ws/append-batcher.ts); the database gets the text in batches, because each write rewrites the
 * message's row and costs at least a page or two of WAL whatever its size: a write per chunk made a
 * 20 KB reply cost 37 MB of disk (issue 35). A batch is written when any of these holds:
 * - it reached APPEND_MAX_CHARS (a fast stream writes every 16 K characters);
 * - it is APPEND_MIN_DELAY_MS old and at least 1/APPEND_GROWTH of what is already written, so each
 *   rewrite of a long row adds a fair share to it and what a fast reply rewrites stays linear in it;
 * - it is APPEND_MAX_DELAY_MS old (a reply streamed at a model's pace still lands within seconds,
 *   and rewrites its row at most every 10 s once it is long);
 * and always before anything else enters the transcript, at a turn's end, before a read through
 * the API, and at shutdown (Transcript.flush). A crash can therefore lose at most the last batch of
 * a reply that was still streaming: about APPEND_MAX_CHARS characters or APPEND_MAX_DELAY_MS of it.
 */

export const APPEND_MAX_CHARS = 16 * 1024;
export const APPEND_MIN_DELAY_MS = 250;
export const APPEND_MAX_DELAY_MS = 10_000;
export const APPEND_GROWTH = 8;

export interface BatchFacts {
  /** Characters waiting to be written. */
  pendingChars: number;
  /** Characters of the message already on disk. */
  writtenChars: number;
  /** How long the oldest waiting character has waited. */
  ageMs: number;
}

/** Whether the waiting batch should be written now. Pure; see stream-writes.test.ts. */
export function batchDue({ pendingChars, writtenChars, ageMs }: BatchFacts): boolean {
  if (pendingChars <= 0) return false;
  if (pendingChars >= APPEND_MAX_CHARS || ageMs >= APPEND_MAX_DELAY_MS) return true;
  return ageMs >= APPEND_MIN_DELAY_MS && pendingChars * APPEND_GROWTH >= writtenChars;
}

/** How long to wait before asking `batchDue` again for a batch of this age (timer re-arm). */
export function nextCheckMs(ageMs: number): number {
  if (ageMs < APPEND_MIN_DELAY_MS) return APPEND_MIN_DELAY_MS - ageMs;
  return Math.min(APPEND_MIN_DELAY_MS, Math.max(1, APPEND_MAX_DELAY_MS - ageMs));
}

/** The text of one open message: what is on disk and what waits. */
export interface StreamedText {
  messageId: string;
  /** Characters (UTF-16 units, as offsets on the wire) already on disk. */
  writtenChars: number;
  /** Appended text not yet on disk. */
  pending: string;
  /** When the oldest pending character arrived (meaningless while `pending` is empty). */
  sinceMs: number;
}

/** `text` appended at `now`: the new state and the offset the text starts at. Pure. */
export function appendText(stream: StreamedText, text: string, now: number): { stream: StreamedText; offset: number } {
  const offset = stream.writtenChars + stream.pending.length;
  const sinceMs = stream.pending.length === 0 ? now : stream.sinceMs;
  return { stream: { ...stream, pending: stream.pending + text, sinceMs }, offset };
}

/** The state once its pending batch is on disk. Pure. */
export function written(stream: StreamedText): StreamedText {
  return { ...stream, writtenChars: stream.writtenChars + stream.pending.length, pending: "" };
}
