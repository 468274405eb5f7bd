// Shared by the ElicitationManager tests: a fake clock, a manager wired to it, and a form request.
import assert from "node:assert/strict";
import { AGENT_EVENTS } from "@kandev/protocol";
import { formParams, opts } from "./elicitation-helpers.js";
import type { ElicitationResponse } from "../src/elicitation/answers.js";
import { ElicitationManager, type ElicitationClock, type ElicitationManagerOptions } from "../src/elicitation/manager.js";

/**
 * A clock whose time moves only when the test says so; timers fire in deadline order. Node turns a
 * delay above 2^31-1 ms into 1 ms; this clock refuses one, so a manager that forgot the ceiling fails.
 */
export function fakeClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: ElicitationClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      seq += 1;
      if (ms > 2 ** 31 - 1) throw new RangeError(`setTimeout(${ms}) would fire after 1 ms in Node`);
      timers.set(seq, { at: now + Math.max(1, ms), fn });
      return seq;
    },
    clearTimeout: (handle) => {
      timers.delete(handle as number);
    },
  };
  return {
    clock,
    advance(ms: number) {
      const target = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (due === undefined) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = target;
    },
    get timerCount() {
      return timers.size;
    },
  };
}

export type Emitted = { event: string; payload: Record<string, unknown> };

export function setup(overrides: Partial<ElicitationManagerOptions> = {}) {
  const time = fakeClock();
  const events: Emitted[] = [];
  const logs: string[] = [];
  let flag = true;
  let counter = 0;
  const manager = new ElicitationManager({
    features: () => ({ acpElicitation: flag }),
    answerTimeoutMs: 60_000,
    emit: (event, payload) => {
      // Every event must satisfy its wire schema (validated in both directions).
      AGENT_EVENTS[event].parse(payload);
      events.push({ event, payload });
    },
    newId: () => `pending-${++counter}`,
    clock: time.clock,
    log: (m) => logs.push(m),
    ...overrides,
  });
  return {
    manager,
    time,
    events,
    logs,
    setFlag: (on: boolean) => {
      flag = on;
    },
    requested: () => events.filter((e) => e.event === "elicitation.requested").map((e) => e.payload),
    settled: () => events.filter((e) => e.event === "elicitation.settled").map((e) => e.payload),
  };
}

export const ask = formParams(
  {
    question_0: { type: "string", title: "Colour", description: "Which colour?", oneOf: opts("Red", "Blue") },
    question_0_custom: { type: "string", title: "Other", _meta: { _askUserQuestionCustomAnswer: { questionId: "question_0" } } },
  },
  { toolCallId: "toolu_1", sessionId: "sess-A" },
);
export const askOther = { ...ask, sessionId: "sess-B" };

/** Tracks whether a promise has settled, without awaiting it. */
export function track(p: Promise<ElicitationResponse>) {
  const state: { value?: ElicitationResponse; count: number } = { count: 0 };
  void p.then((v) => {
    state.value = v;
    state.count += 1;
  });
  return state;
}
export const tick = () => new Promise<void>((r) => setImmediate(r));

/**
 * After every pending settled, the one deadline timer may still be armed (it is shared and left
 * running); when its time comes it settles nothing, emits nothing and is not re-armed.
 */
export function deadlinePassesQuietly(s: ReturnType<typeof setup>) {
  const events = s.events.length;
  assert.ok(s.time.timerCount <= 1, `at most the shared deadline timer is armed, found ${s.time.timerCount}`);
  s.time.advance(10 * 60_000);
  assert.equal(s.events.length, events);
  assert.equal(s.time.timerCount, 0);
}
