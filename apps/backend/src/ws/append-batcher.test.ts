import assert from "node:assert/strict";
import { test } from "node:test";
import type { MessageAppended } from "@kandev/protocol";
import { APPEND_WINDOW_MS, AppendBatcher } from "./append-batcher.js";

const W = APPEND_WINDOW_MS;

function chunk(message_id: string, offset: number, text: string, session_id = "s1", task_id = "t1"): MessageAppended {
  return { session_id, task_id, message_id, offset, text };
}

test("appends of one message within a window go out as one frame at the window's end", () => {
  const b = new AppendBatcher();
  assert.deepEqual(b.add(chunk("m", 0, "ab"), 0), []);
  assert.deepEqual(b.add(chunk("m", 2, "cd"), 5), []);
  assert.deepEqual(b.add(chunk("m", 4, "e"), W - 1), []);
  assert.equal(b.nextDue(), W);
  assert.deepEqual(b.due(W - 1), [], "not before the window ends");
  assert.deepEqual(b.due(W), [chunk("m", 0, "abcde")]);
  assert.equal(b.nextDue(), null, "nothing left: no timer needed");
  assert.equal(b.size, 0);
});

test("a message streaming for many windows costs one frame per window, with contiguous offsets", () => {
  const b = new AppendBatcher();
  const frames: MessageAppended[] = [];
  let text = "";
  // 2,000 chunks, one every millisecond of fake clock; the caller's timer fires at nextDue().
  for (let i = 0; i < 2000; i++) {
    const now = i;
    const due = b.nextDue();
    if (due !== null && due <= now) frames.push(...b.due(now));
    const piece = `c${i % 10}`;
    frames.push(...b.add(chunk("m", text.length, piece), now));
    text += piece;
  }
  frames.push(...b.take(() => true));
  assert.ok(frames.length <= Math.ceil(2000 / W) + 1, `${frames.length} frames`);
  let rebuilt = "";
  for (const f of frames) {
    assert.equal(f.offset, rebuilt.length, "each frame starts where the last ended");
    rebuilt += f.text;
  }
  assert.equal(rebuilt, text);
});

test("each message keeps its own window and its own batch", () => {
  const b = new AppendBatcher();
  b.add(chunk("a", 0, "x"), 0);
  b.add(chunk("b", 10, "y", "s2", "t2"), 20);
  b.add(chunk("a", 1, "z"), 25);
  assert.equal(b.nextDue(), W);
  assert.deepEqual(b.due(W), [chunk("a", 0, "xz")]);
  assert.equal(b.nextDue(), 20 + W);
  assert.deepEqual(b.due(20 + W), [chunk("b", 10, "y", "s2", "t2")]);
});

test("take sends one session's batches early, in order, and leaves the others waiting", () => {
  const b = new AppendBatcher();
  b.add(chunk("a1", 0, "1"), 0);
  b.add(chunk("b1", 0, "2", "s2"), 1);
  b.add(chunk("a2", 0, "3"), 2);
  assert.deepEqual(
    b.take((f) => f.session_id === "s1"),
    [chunk("a1", 0, "1"), chunk("a2", 0, "3")],
  );
  assert.deepEqual(
    b.take((f) => f.session_id === "s1"),
    [],
    "taken once",
  );
  assert.equal(b.size, 1);
  // After an early send the message starts a fresh window.
  b.add(chunk("a1", 1, "4"), 10);
  assert.deepEqual(b.due(1 + W), [chunk("b1", 0, "2", "s2")]);
  assert.deepEqual(b.due(10 + W), [chunk("a1", 1, "4")]);
});

test("an append that does not continue its batch sends the batch alone and starts another", () => {
  const b = new AppendBatcher();
  b.add(chunk("m", 0, "abc"), 0);
  // The message was rewritten in between (its content is now 10 long): not joinable.
  assert.deepEqual(b.add(chunk("m", 10, "xyz"), 5), [chunk("m", 0, "abc")]);
  assert.equal(b.nextDue(), W, "the window does not move");
  assert.deepEqual(b.due(W), [chunk("m", 10, "xyz")]);
});

test("the batcher copies what it is given: later edits to a caller's object do not leak in", () => {
  const b = new AppendBatcher();
  const first = chunk("m", 0, "a");
  b.add(first, 0);
  b.add(chunk("m", 1, "b"), 1);
  assert.equal(first.text, "a");
  assert.deepEqual(b.due(W), [chunk("m", 0, "ab")]);
});
