import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { TickCork, rawSocketOf } from "./tick-cork.js";

/** A scheduler that runs its callbacks only when the test says so. */
function manual() {
  const queued: Array<() => void> = [];
  return { queued, schedule: (fn: () => void) => void queued.push(fn), run: () => queued.splice(0).forEach((fn) => fn()) };
}

/** A Writable that records each write call it receives (a corked burst arrives as one writev). */
function recorder() {
  const writes: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      writes.push([chunk.toString()]);
      cb();
    },
    writev(chunks, cb) {
      writes.push(chunks.map((c) => String(c.chunk)));
      cb();
    },
  });
  return { stream, writes };
}

describe("TickCork", () => {
  test("writes made while corked leave together at the flush, in order; one flush is scheduled per tick", () => {
    const clock = manual();
    const cork = new TickCork(clock.schedule);
    const a = recorder();
    const b = recorder();
    cork.cork(a.stream);
    a.stream.write("1");
    cork.cork(a.stream);
    a.stream.write("2");
    cork.cork(b.stream);
    b.stream.write("x");
    assert.equal(clock.queued.length, 1, "one flush for the tick");
    assert.deepEqual([a.writes, b.writes], [[], []], "nothing leaves before the flush");
    clock.run();
    assert.deepEqual(a.writes, [["1", "2"]]);
    assert.deepEqual(b.writes, [["x"]]);
    // The next tick corks afresh.
    cork.cork(a.stream);
    a.stream.write("3");
    assert.equal(clock.queued.length, 1);
    clock.run();
    assert.deepEqual(a.writes, [["1", "2"], ["3"]]);
  });

  test("a corked stream's own cork/uncork pairs (ws frames) do not flush early", () => {
    const clock = manual();
    const cork = new TickCork(clock.schedule);
    const a = recorder();
    cork.cork(a.stream);
    for (const frame of ["h1", "p1", "h2", "p2"]) {
      a.stream.cork();
      a.stream.write(frame);
      a.stream.uncork();
    }
    assert.deepEqual(a.writes, []);
    cork.flush();
    assert.deepEqual(a.writes, [["h1", "p1", "h2", "p2"]]);
    clock.run(); // the scheduled flush finds nothing left to do
    assert.deepEqual(a.writes, [["h1", "p1", "h2", "p2"]]);
  });

  test("rawSocketOf finds ws's underlying socket, or nothing", () => {
    const socket = { cork() {}, uncork() {} };
    assert.equal(rawSocketOf({ _socket: socket }), socket);
    assert.equal(rawSocketOf({}), undefined);
    assert.equal(rawSocketOf({ _socket: null }), undefined);
    assert.equal(rawSocketOf({ _socket: { cork() {} } }), undefined);
  });
});
