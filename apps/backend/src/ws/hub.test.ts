import assert from "node:assert/strict";
import { test } from "node:test";
import { silentLogger } from "../logger.js";
import { APPEND_WINDOW_MS } from "./append-batcher.js";
import { BrowserHub, MAX_QUEUED_BYTES, fallenBehind } from "./hub.js";

test("a socket has fallen behind past the bound, never while two frames' worth fit", () => {
  assert.equal(fallenBehind(0, 100), false);
  assert.equal(fallenBehind(MAX_QUEUED_BYTES, 100), false, "at the bound is still in");
  assert.equal(fallenBehind(MAX_QUEUED_BYTES + 1, 100), true);
  // A long reply sent whole: a reader holding one 10 MB frame is not dropped for the next one.
  const big = 10 * 1024 * 1024;
  assert.equal(fallenBehind(big, big), false);
  assert.equal(fallenBehind(2 * big + 1, big), true);
  assert.equal(fallenBehind(11, 1, 10), true, "the bound can be given");
});

/** A scheduler the test runs by hand: what is armed, and whether it was cancelled. */
function fakeTimers() {
  const armed: Array<{ run: () => void; ms: number; cancelled: boolean }> = [];
  const schedule = (run: () => void, ms: number) => {
    const t = { run, ms, cancelled: false };
    armed.push(t);
    return { cancel: () => (t.cancelled = true) };
  };
  return { armed, schedule, live: () => armed.filter((t) => !t.cancelled) };
}

const append = (message_id: string, offset: number, text: string) => ({ session_id: "s", task_id: "t", message_id, offset, text });

test("streamed text arms one timer for its batch, which re-arms only while more waits", () => {
  let now = 0;
  const timers = fakeTimers();
  const hub = new BrowserHub({ allowedOrigins: [], logger: silentLogger, now: () => now, schedule: timers.schedule });
  try {
    hub.messageAppended(append("m", 0, "a"));
    hub.messageAppended(append("m", 1, "b"));
    now = 10;
    hub.messageAppended(append("n", 0, "c"));
    assert.deepEqual(
      timers.armed.map((t) => t.ms),
      [APPEND_WINDOW_MS],
      "one timer, for the earliest batch",
    );
    now = APPEND_WINDOW_MS;
    timers.armed[0]?.run();
    assert.deepEqual(
      timers.armed.map((t) => t.ms),
      [APPEND_WINDOW_MS, 10],
      "re-armed for the batch still waiting",
    );
    now = APPEND_WINDOW_MS + 10;
    timers.armed[1]?.run();
    assert.equal(timers.armed.length, 2, "nothing waits: no timer");
  } finally {
    hub.close();
  }
});

test("a hub closed while streamed text waits in its batch leaves no timer behind", () => {
  const timers = fakeTimers();
  const hub = new BrowserHub({ allowedOrigins: [], logger: silentLogger, now: () => 0, schedule: timers.schedule });
  hub.messageAppended(append("m", 0, "streamed"));
  assert.equal(timers.live().length, 1);
  hub.close();
  assert.equal(timers.live().length, 0);
});

test("a frame about the session sends its waiting batch first, so the batch's timer is cancelled", () => {
  const timers = fakeTimers();
  const hub = new BrowserHub({ allowedOrigins: [], logger: silentLogger, now: () => 0, schedule: timers.schedule });
  try {
    hub.messageAppended(append("m", 0, "streamed"));
    hub.sessionLog({ session_id: "other", task_id: "other", lines: [] });
    assert.equal(timers.live().length, 1, "another session's frame leaves the batch waiting");
    hub.sessionLog({ session_id: "s", task_id: "t", lines: [] });
    assert.equal(timers.live().length, 0);
  } finally {
    hub.close();
  }
});
