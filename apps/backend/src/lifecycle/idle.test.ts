import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SessionStateSchema } from "@kandev/protocol";
import { idleDecision, IdleWatch, type IdleFacts } from "./idle.js";

const waiting = (lastActivityMs: number, openRequests = 0): IdleFacts => ({ state: "WAITING_FOR_INPUT", openRequests, lastActivityMs });

describe("idle agents go away", () => {
  test("a session waiting for its next prompt past the timeout is closed", () => {
    assert.deepEqual(idleDecision(waiting(0), 1000, 1000), { close: true });
    assert.deepEqual(idleDecision(waiting(0), 5000, 1000), { close: true });
  });

  test("before the timeout it is looked at again when the timeout would be reached", () => {
    assert.deepEqual(idleDecision(waiting(0), 400, 1000), { close: false, checkAgainInMs: 600 });
    assert.deepEqual(idleDecision(waiting(500), 400, 1000), { close: false, checkAgainInMs: 1000 });
  });

  test("a question or permission still open keeps the agent, however long it waits", () => {
    assert.deepEqual(idleDecision(waiting(0, 1), 10 * 60_000, 1000), { close: false, checkAgainInMs: 1000 });
  });

  test("only a session waiting for input is ever closed (a running turn, a start, an ended session are not)", () => {
    for (const state of SessionStateSchema.options.filter((s) => s !== "WAITING_FOR_INPUT")) {
      assert.deepEqual(idleDecision({ state, openRequests: 0, lastActivityMs: 0 }, 10_000, 1000), { close: false, checkAgainInMs: 1000 });
    }
  });

  test("the watch closes an idle session once, after activity moved its idle start, and a timeout of 0 watches nothing", async () => {
    let clock = 0;
    const closed: string[] = [];
    const seen: number[] = [];
    let done: () => void = () => undefined;
    const finished = new Promise<void>((r) => (done = r));
    const watch = new IdleWatch({
      timeoutMs: 20,
      now: () => clock,
      facts: (_id, last) => {
        seen.push(last);
        clock += 20; // each check happens one timeout after the last activity it knows of
        return waiting(last);
      },
      close: (id) => {
        closed.push(id);
        done();
      },
    });
    watch.watch("s1");
    clock = 5;
    watch.touch("s1");
    // The watch's timers are unref'd (they never keep a board alive), so this test holds the
    // event loop open itself while it waits; without it node may end the file before they fire.
    const keepAlive = setInterval(() => undefined, 1_000);
    await finished.finally(() => clearInterval(keepAlive));
    assert.deepEqual(closed, ["s1"]);
    assert.deepEqual(seen, [5]);
    const off = new IdleWatch({ timeoutMs: 0, facts: () => waiting(0), close: () => assert.fail("closed with the watch off") });
    off.watch("s2");
    off.stop();
  });
});
