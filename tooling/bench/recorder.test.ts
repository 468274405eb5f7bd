import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { RunRecorder, sampleLines } from "./recorder.js";
import { threeRoundTrips } from "./recorder-fixtures.js";

describe("RunRecorder", () => {
  test("ask samples, answer samples closed by the next request and by the summary, and the rate", () => {
    const r = threeRoundTrips();
    assert.deepEqual(r.asks, [2, 3, 3]);
    assert.deepEqual(r.answers, [2, 4, 2]);
    assert.equal(r.roundTrips, 3);
    // 3 round trips between the first ask sent (1000) and the last answer received (1014).
    assert.equal(r.rate(), 3000 / 14);
    assert.deepEqual(r.errors, []);
  });
  test("every sample keeps its session, request number and start, and sampleLines writes one JSON line each", () => {
    const r = threeRoundTrips();
    assert.deepEqual(r.askOrigins, { session: [0, 0, 1], seq: [1, 2, 1], at: [1000, 1006, 1001] });
    assert.deepEqual(r.answerOrigins, { session: [0, 0, 1], seq: [1, 2, 1], at: [1003, 1010, 1004.5] });
    const lines = sampleLines(r, { sessions: 50, block: 2, side: "product" })
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as unknown);
    const label = { sessions: 50, block: 2, side: "product" };
    assert.deepEqual(lines, [
      { ...label, kind: "ask", session: 0, seq: 1, at: 1000, ms: 2 },
      { ...label, kind: "ask", session: 0, seq: 2, at: 1006, ms: 3 },
      { ...label, kind: "ask", session: 1, seq: 1, at: 1001, ms: 3 },
      { ...label, kind: "answer", session: 0, seq: 1, at: 1003, ms: 2 },
      { ...label, kind: "answer", session: 0, seq: 2, at: 1010, ms: 4 },
      { ...label, kind: "answer", session: 1, seq: 1, at: 1004.5, ms: 2 },
    ]);
    assert.equal(sampleLines(new RunRecorder(), { sessions: 1, block: 0, side: "floor" }), "");
  });
  test("an answer that was never sent is an error, not a sample", () => {
    const r = new RunRecorder();
    r.onAsk(0, 2, 10, 9, 11);
    assert.deepEqual(r.answers, []);
    assert.deepEqual(r.answerOrigins, { session: [], seq: [], at: [] });
    assert.match(r.errors[0] ?? "", /session 0: answer 1 reached the agent but was never sent/);
    assert.equal(r.rate(), 0);
  });
});
