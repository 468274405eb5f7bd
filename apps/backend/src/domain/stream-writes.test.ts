import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  APPEND_GROWTH,
  APPEND_MAX_CHARS,
  APPEND_MAX_DELAY_MS,
  APPEND_MIN_DELAY_MS,
  appendText,
  batchDue,
  nextCheckMs,
  written,
  type StreamedText,
} from "./stream-writes.js";

/**
 * Streams `chunks` chunks of `size` characters, one every `everyMs`, through the rules: a timer
 * asks `batchDue` when `nextCheckMs` says, as Transcript does. Returns the rows' sizes after each
 * write (what each write rewrites) and the text written.
 */
function simulate(chunks: number, size: number, everyMs: number) {
  let stream: StreamedText = { messageId: "m", writtenChars: size, pending: "", sinceMs: 0 };
  const rewrites: number[] = [size];
  let timerAt: number | null = null;
  const flushIfDue = (now: number) => {
    if (batchDue({ pendingChars: stream.pending.length, writtenChars: stream.writtenChars, ageMs: now - stream.sinceMs })) {
      stream = written(stream);
      rewrites.push(stream.writtenChars);
      timerAt = null;
    } else if (stream.pending.length > 0) {
      timerAt = now + nextCheckMs(now - stream.sinceMs);
    }
  };
  for (let i = 1; i < chunks; i++) {
    const now = i * everyMs;
    while (timerAt !== null && timerAt <= now) flushIfDue(timerAt);
    stream = appendText(stream, "x".repeat(size), now).stream;
    if (timerAt === null) timerAt = now + nextCheckMs(0);
    flushIfDue(now);
  }
  const pendingAtEnd = stream.pending.length;
  // The turn's end writes what waits.
  if (pendingAtEnd > 0) rewrites.push(written(stream).writtenChars);
  return { rewrites, total: chunks * size, pendingAtEnd };
}

describe("when streamed text is written", () => {
  test("nothing waiting is never due", () => {
    assert.equal(batchDue({ pendingChars: 0, writtenChars: 0, ageMs: 60_000 }), false);
  });

  test("a full batch is due at once, a young small one is not", () => {
    assert.equal(batchDue({ pendingChars: APPEND_MAX_CHARS, writtenChars: 10 ** 6, ageMs: 0 }), true);
    assert.equal(batchDue({ pendingChars: 10, writtenChars: 0, ageMs: APPEND_MIN_DELAY_MS - 1 }), false);
    assert.equal(batchDue({ pendingChars: 10, writtenChars: 0, ageMs: APPEND_MIN_DELAY_MS }), true);
  });

  test("a batch small beside a long row waits, up to the longest delay", () => {
    const long = 100_000;
    assert.equal(batchDue({ pendingChars: long / APPEND_GROWTH - 1, writtenChars: long, ageMs: APPEND_MIN_DELAY_MS }), false);
    assert.equal(batchDue({ pendingChars: long / APPEND_GROWTH, writtenChars: long, ageMs: APPEND_MIN_DELAY_MS }), true);
    assert.equal(batchDue({ pendingChars: 1, writtenChars: long, ageMs: APPEND_MAX_DELAY_MS }), true);
  });

  test("offsets count what is written and what waits", () => {
    let s: StreamedText = { messageId: "m", writtenChars: 5, pending: "", sinceMs: 0 };
    const a = appendText(s, "ab", 100);
    assert.equal(a.offset, 5);
    assert.equal(a.stream.sinceMs, 100);
    const b = appendText(a.stream, "cü", 300);
    assert.equal(b.offset, 7);
    assert.equal(b.stream.sinceMs, 100, "the batch's age runs from its oldest character");
    s = written(b.stream);
    assert.deepEqual(s, { messageId: "m", writtenChars: 9, pending: "", sinceMs: 100 });
    assert.equal(appendText(s, "d", 900).offset, 9);
  });

  test("the timer is re-armed for the shortest delay, then at most every shortest delay until the longest", () => {
    assert.equal(nextCheckMs(0), APPEND_MIN_DELAY_MS);
    assert.equal(nextCheckMs(100), APPEND_MIN_DELAY_MS - 100);
    assert.equal(nextCheckMs(APPEND_MIN_DELAY_MS), APPEND_MIN_DELAY_MS);
    assert.equal(nextCheckMs(APPEND_MAX_DELAY_MS - 10), 10);
    assert.equal(nextCheckMs(APPEND_MAX_DELAY_MS + 10), 1);
  });

  test("a fast 8,000-chunk reply is a handful of writes, each at most a full batch", () => {
    // 8,000 chunks of 10 characters in 0.8 s, as the flood scenario streams.
    const { rewrites, total } = simulate(8_000, 10, 0.1);
    assert.ok(rewrites.length <= Math.ceil(total / APPEND_MAX_CHARS) + 2, `${rewrites.length} writes: ${rewrites}`);
    // A batch ends with the chunk that filled it.
    for (let i = 1; i < rewrites.length; i++) assert.ok(rewrites[i]! - rewrites[i - 1]! < APPEND_MAX_CHARS + 10, `batch ${i}: ${rewrites}`);
  });

  /** Bytes a reply costs per character: each write rewrites the row and adds two WAL pages (table and index). */
  const perChar = (r: ReturnType<typeof simulate>) => r.rewrites.reduce((a, b) => a + b + 2 * 4096, 0) / r.total;

  test("what a fast reply rewrites grows linearly with it", () => {
    // Rewriting the whole row per chunk (the old way) makes the long reply 4x the short per character.
    for (const everyMs of [0.01, 0.1, 1]) {
      const short = perChar(simulate(2_000, 10, everyMs));
      const long = perChar(simulate(8_000, 10, everyMs));
      assert.ok(long <= 1.5 * short, `every ${everyMs} ms: ${short.toFixed(1)} vs ${long.toFixed(1)}`);
    }
  });

  test("a reply streamed at a model's pace for minutes costs at most 20 bytes per character", () => {
    // 10 characters every 20 ms is 500 characters a second: 8,000 chunks take 160 s.
    for (const everyMs of [5, 20]) {
      const cost = perChar(simulate(8_000, 10, everyMs));
      assert.ok(cost <= 20, `every ${everyMs} ms: ${cost.toFixed(1)} characters rewritten per character`);
    }
  });

  test("no character waits longer than the longest delay", () => {
    // A chunk every 200 ms for 8,000 chunks: the simulation stops at the last chunk; at most the
    // batch younger than the longest delay is still waiting.
    const { pendingAtEnd } = simulate(8_000, 10, 200);
    assert.ok(pendingAtEnd <= (APPEND_MAX_DELAY_MS / 200) * 10, `${pendingAtEnd} characters waiting`);
  });
});
