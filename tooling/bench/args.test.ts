import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseBenchArgs, parseSessionList, UsageError } from "./args.js";

describe("parseBenchArgs", () => {
  test("defaults: 1,10,50 sessions, 200 round trips, 1000 pending, the 10,000 growth check, board on", () => {
    assert.deepEqual(parseBenchArgs([]), {
      sessions: [1, 10, 50],
      roundTrips: 200,
      warmup: 3000,
      pending: 1000,
      growth: 10_000,
      pacedRate: 100,
      quick: false,
      lean: false,
      board: true,
      json: false,
      help: false,
      sessionCost: false,
      samplesFile: null,
      streaming: true,
      streamingOnly: false,
      streamSessions: [1, 10],
      streamChunks: [2000, 8000],
    });
  });
  test("--quick shrinks the counts it was not given", () => {
    const a = parseBenchArgs(["--quick"]);
    assert.deepEqual([a.roundTrips, a.warmup, a.growth, a.pending, a.sessions, a.board], [10, 5, 0, 1000, [1, 5], false]);
    assert.equal(parseBenchArgs(["--quick", "--board"]).board, true);
    assert.equal(parseBenchArgs(["--quick", "--round-trips", "30"]).roundTrips, 30);
  });
  test("both --flag value and --flag=value", () => {
    const a = parseBenchArgs([
      "--sessions=5,1",
      "--round-trips",
      "7",
      "--json",
      "--no-board",
      "--growth=0",
      "--pending",
      "20",
      "--paced-rate",
      "0",
      "--warmup=0",
    ]);
    assert.deepEqual([a.sessions, a.roundTrips, a.json, a.board, a.growth, a.pending, a.pacedRate, a.warmup], [[1, 5], 7, true, false, 0, 20, 0, 0]);
  });
  test("bad input is a UsageError naming the flag", () => {
    assert.throws(
      () => parseBenchArgs(["--sessions"]),
      (e: unknown) => e instanceof UsageError && /--sessions needs a value/.test(e.message),
    );
    assert.throws(() => parseBenchArgs(["--round-trips", "0"]), /--round-trips must be between 1/);
    assert.throws(() => parseBenchArgs(["--round-trips", "1.5"]), /whole number/);
    assert.throws(() => parseBenchArgs(["--pending", "-3"]), /needs a value|whole number/);
    assert.throws(() => parseBenchArgs(["--warmup", "x"]), /--warmup needs a whole number/);
    assert.throws(() => parseBenchArgs(["--fast"]), /unknown option "--fast"/);
    assert.throws(() => parseBenchArgs(["--round-trips", "--json"]), /needs a value/);
  });
  test("the streaming pass: in a full run, not in --quick unless asked; --streaming runs it alone", () => {
    assert.equal(parseBenchArgs(["--quick"]).streaming, false);
    assert.equal(parseBenchArgs(["--no-streaming"]).streaming, false);
    const only = parseBenchArgs(["--streaming", "--quick"]);
    assert.deepEqual(
      [only.streaming, only.streamingOnly, only.streamSessions, only.streamChunks, only.board],
      [true, true, [1, 10], [500, 2000], false],
    );
    const given = parseBenchArgs(["--streaming", "--stream-sessions=10,1,10", "--stream-chunks", "8000,100"]);
    assert.deepEqual([given.streamSessions, given.streamChunks, given.board], [[1, 10], [100, 8000], true]);
    assert.throws(() => parseBenchArgs(["--stream-chunks", "0"]), /--stream-chunks must be between 1 and 100000/);
    assert.throws(() => parseBenchArgs(["--stream-sessions", "101"]), /--stream-sessions must be between 1 and 100/);
    assert.throws(() => parseBenchArgs(["--stream-sessions", ""]), /--stream-sessions needs/);
    assert.throws(() => parseBenchArgs(["--streaming", "--no-streaming"]), /contradict/);
  });
  test("--session-cost asks for the session-cost pass only", () => {
    assert.equal(parseBenchArgs(["--session-cost"]).sessionCost, true);
  });
  test("--samples names a file; without a name it is a UsageError", () => {
    assert.equal(parseBenchArgs(["--samples", "out/s.jsonl"]).samplesFile, "out/s.jsonl");
    assert.equal(parseBenchArgs(["--samples=s.jsonl", "--quick"]).samplesFile, "s.jsonl");
    assert.throws(() => parseBenchArgs(["--samples"]), /--samples needs a value/);
    assert.throws(() => parseBenchArgs(["--samples", " "]), /--samples needs a file name/);
  });
  test("--lean adds the lean board, with any other options", () => {
    assert.equal(parseBenchArgs(["--lean"]).lean, true);
    const a = parseBenchArgs(["--quick", "--lean", "--sessions", "3"]);
    assert.deepEqual([a.lean, a.quick, a.sessions], [true, true, [3]]);
    assert.throws(() => parseBenchArgs(["--lean=yes"]), /unknown option "yes"/);
  });
  test("--help", () => {
    assert.equal(parseBenchArgs(["-h"]).help, true);
  });
});

describe("parseSessionList", () => {
  test("sorted and de-duplicated", () => {
    assert.deepEqual(parseSessionList("50, 1,10,1"), [1, 10, 50]);
  });
  test("refuses empty, zero, non-numbers and absurd counts", () => {
    for (const bad of ["", "0", "1,,2", "ten", "1000"]) assert.throws(() => parseSessionList(bad), UsageError, bad);
  });
});
