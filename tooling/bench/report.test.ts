import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkTargets, cpuDelta, describeDiskWait, jsonReport, markdownTable, memoryFigures, renderReport, type BenchResult } from "./report.js";

const P = (p50: number, p95: number, p99: number, max: number) => ({ p50, p95, p99, max });

function result(overrides: Partial<BenchResult> = {}): BenchResult {
  return {
    machine: {
      cpus: 2,
      model: "Test CPU",
      memoryGb: 8,
      node: "20.20.2",
      os: "Linux test",
      load: { start: 0.5, end: 1.25 },
      stealPct: 12.34,
      iowaitPct: 0.52,
      ioStallS: 41.25,
      autogroups: true,
    },
    roundTripsPerSession: 100,
    warmupPerSession: 300,
    runs: [
      {
        sessions: 1,
        roundTrips: 100,
        saturated: { ask: P(9, 9, 9, 9), answer: P(9, 9, 9, 9), floorAsk: P(1, 1, 1, 1), floorAnswer: P(1, 1, 1, 1) },
        paced: {
          rate: 100,
          thinkMs: 10,
          roundTrips: 100,
          ask: P(1.23456, 2, 3, 4),
          answer: P(1, 2, 3, 4),
          floorAsk: P(0.5, 1, 1.5, 2),
          floorAnswer: P(0.5, 1, 1.5, 2),
        },
        roundTripsPerS: 333.333,
        floorRoundTripsPerS: 1000,
        cpu: { backend: 1, agentctl: 0.5, agent: 0.25, operator: 0.25 },
        floorCpu: { backend: 0.1, agentctl: 0.1, agent: 0.1, operator: 0.2 },
      },
      {
        sessions: 50,
        roundTrips: 5000,
        saturated: { ask: P(90, 90, 90, 90), answer: P(90, 90, 90, 90), floorAsk: P(10, 10, 10, 10), floorAnswer: P(10, 10, 10, 10) },
        paced: {
          rate: 100,
          thinkMs: 500,
          roundTrips: 60,
          ask: P(5, 10, 14.9, 30),
          answer: P(6, 12, 16, 40),
          floorAsk: P(2, 4, 5, 8),
          floorAnswer: P(2, 4, 5, 8),
        },
        roundTripsPerS: 612.4567,
        floorRoundTripsPerS: 4000,
        cpu: { backend: 1, agentctl: 0.5, agent: 0.25, operator: 0.25 },
        floorCpu: { backend: 0.1, agentctl: 0.1, agent: 0.1, operator: 0.2 },
      },
    ],
    memory: {
      pending: 1000,
      sessions: 50,
      baseline: { backend: 100_000, agentctl: 900_000 },
      withPending: { backend: 105_000, agentctl: 907_500 },
      settled: { backend: 101_000, agentctl: 900_500 },
      leftPendingRecords: 0,
      unansweredAtAgent: 0,
      growth: { roundTrips: 10_000, before: { backend: 101_000, agentctl: 900_500 }, after: { backend: 150_000, agentctl: 1_000_000 } },
    },
    board: { tasks: 1000, rows: 100, coldRenderMs: 1500, renderMs: [400, 500], iconMs: [20, 30, 120] },
    durationS: 42,
    ...overrides,
  };
}

describe("jsonReport", () => {
  test("is exactly the issue's object: runs with the four figures and the rate, and memory", () => {
    const json = jsonReport(result());
    assert.deepEqual(json, {
      runs: [
        {
          sessions: 1,
          ask_ms: { p50: 1.235, p95: 2, p99: 3, max: 4 },
          answer_ms: { p50: 1, p95: 2, p99: 3, max: 4 },
          floor_ask_ms: { p50: 0.5, p95: 1, p99: 1.5, max: 2 },
          floor_answer_ms: { p50: 0.5, p95: 1, p99: 1.5, max: 2 },
          round_trips_per_s: 333.3,
        },
        {
          sessions: 50,
          ask_ms: { p50: 5, p95: 10, p99: 14.9, max: 30 },
          answer_ms: { p50: 6, p95: 12, p99: 16, max: 40 },
          floor_ask_ms: { p50: 2, p95: 4, p99: 5, max: 8 },
          floor_answer_ms: { p50: 2, p95: 4, p99: 5, max: 8 },
          round_trips_per_s: 612.5,
        },
      ],
      memory: { pending: 1000, kb_per_pending: 12.5, retained_kb_after_settle: 1500 },
    });
    // One line of JSON that parses back to itself.
    assert.deepEqual(JSON.parse(JSON.stringify(json)), json);
  });
  test("without a paced pass the saturated latencies are reported", () => {
    const r = result();
    const run = { ...r.runs[0]!, paced: null };
    const json = jsonReport({ ...r, runs: [run] }) as { runs: Array<{ ask_ms: unknown; floor_answer_ms: unknown }> };
    assert.deepEqual(json.runs[0]!.ask_ms, { p50: 9, p95: 9, p99: 9, max: 9 });
    assert.deepEqual(json.runs[0]!.floor_answer_ms, { p50: 1, p95: 1, p99: 1, max: 1 });
  });
  test("memory is null when that phase did not run", () => {
    assert.deepEqual(jsonReport(result({ memory: null })), { ...(jsonReport(result()) as object), memory: null });
  });
});

describe("memoryFigures", () => {
  test("kB per pending over backend + agentctl, retained after settle, growth", () => {
    const f = memoryFigures(result().memory!);
    assert.equal(f.kbPerPending, 12.5);
    assert.equal(f.retainedKb, 1500);
    assert.equal(f.retainedPct, 0.15);
    assert.equal(f.growthKb, 148_500);
  });
});

describe("checkTargets", () => {
  test("judges the largest run, memory and the board against the issue's targets", () => {
    const checks = checkTargets(result());
    const by = (prefix: string) => checks.find((c) => c.target.startsWith(prefix));
    assert.equal(by("ask median <= 4x floor @50 paced 100/s")?.ok, true, "5 / 2 = 2.5x");
    assert.equal(by("answer median <= 4x floor @50 paced 100/s")?.ok, true, "6 / 2 = 3x");
    assert.equal(
      checks.some((c) => c.target.includes("p99")),
      false,
      "no tail target: on two shared cores the p99 measures the neighbours",
    );
    assert.equal(by(">= 400 round trips/s @50")?.ok, true);
    assert.equal(by("< 20 KB RSS per pending")?.ok, true);
    assert.equal(by("after settle")?.ok, true);
    assert.equal(by("no growth after 10000")?.ok, false, "+14.8% is growth");
    assert.equal(by("a board of 1000 tasks opens < 1 s")?.ok, true, "warm loads; the cold one is reported beside");
    assert.match(by("a board of 1000 tasks opens")!.measured, /cold: 1500 ms/);
    assert.equal(by("icon updates")?.ok, false, "one update took 120 ms");
  });
  test("a median past 4x the floor, or fewer than 400 round trips/s, fails", () => {
    const base = result();
    const last = base.runs.at(-1)!;
    const slowAnswer = { ...last.paced!, answer: P(8.1, 9, 9, 9) };
    const checks = checkTargets({ ...base, runs: [{ ...last, paced: slowAnswer, roundTripsPerS: 399 }] });
    const by = (prefix: string) => checks.find((c) => c.target.startsWith(prefix));
    assert.equal(by("answer median <= 4x floor")?.ok, false, "8.1 / 2 = 4.05x");
    assert.match(by("answer median <= 4x floor")!.measured, /4\.05x \(8\.10 ms, floor 2\.00 ms\)/);
    assert.equal(by("ask median <= 4x floor")?.ok, true);
    assert.equal(by(">= 400 round trips/s")?.ok, false);
  });
  test("pending left behind fails the settle check whatever the RSS says", () => {
    const checks = checkTargets(result({ memory: { ...result().memory!, leftPendingRecords: 2 } }));
    const settle = checks.find((c) => c.target.startsWith("after settle"))!;
    assert.equal(settle.ok, false);
    assert.match(settle.measured, /2 records/);
  });
  test("a board that could not be measured is a failed check with the reason", () => {
    const checks = checkTargets(result({ board: { error: "no Chromium" } }));
    assert.deepEqual(checks.at(-1), { target: "board in Chromium", measured: "not measured: no Chromium", ok: false });
  });
});

describe("describeDiskWait", () => {
  test("says what is unknown rather than printing zeros", () => {
    assert.equal(describeDiskWait({ iowaitPct: null, ioStallS: null }), "I/O wait unknown");
    assert.equal(describeDiskWait({ iowaitPct: 2.25, ioStallS: null }), "I/O wait 2.3% of the run");
    assert.equal(
      describeDiskWait({ iowaitPct: null, ioStallS: 0 }),
      "I/O wait unknown, 0.0 s with some task waiting on the disk (/proc/pressure/io)",
    );
  });
});

describe("tables", () => {
  test("markdownTable pads cells into columns", () => {
    assert.equal(markdownTable(["a", "bb"], [["ccc", "d"]]), ["| a   | bb |", "|-----|----|", "| ccc | d  |"].join("\n"));
  });
  test("renderReport shows every run, the floor ratios, memory, board and the targets", () => {
    const text = renderReport(result());
    assert.match(
      text,
      /Machine: 2 x Test CPU, 8 GB RAM, Node 20.20.2, Linux test; load average 0.5 at start, 1.3 at end; CPU steal 12\.3% of the run .*; I\/O wait 0\.5% of the run, 41\.3 s with some task waiting on the disk \(\/proc\/pressure\/io\); kernel autogroups on$/m,
    );
    assert.match(text, /Warm-up \(not recorded\): 300 round trips per session on both sides\. Saturated pass: 100 serial/);
    assert.match(
      text,
      /\| 50 +\| paced 100\/s +\| answer +\| 6\.00 +\| 12\.0 +\| 16\.0 +\| 40\.0 +\| 2\.00 +\| 4\.00 +\| 5\.00 +\| 8\.00 +\| 3\.00x +\| 3\.20x +\|/,
    );
    assert.match(text, /\| 50 +\| saturated +\| ask +\| 90\.0 +\|/);
    assert.match(text, /\| 50 +\| 5000 +\| 612\.5 +\| 4000\.0 +\|/);
    assert.match(text, /12\.5 KB per pending/);
    assert.match(text, /\| answer median <= 4x floor @50 paced 100\/s +\| 3\.00x \(6\.00 ms, floor 2\.00 ms\) +\| yes +\|/);
    assert.match(text, /icon .*3 updates, median 30\.0 ms, max 120 ms/);
    assert.match(text, /\| 1 +\| 1\.000 +\| 0\.500 +\| 0\.250 +\| 0\.250 +\| 2\.000 +\| 0\.100 +\| 0\.100 +\| 0\.100 +\| 0\.500 +\|/);
  });
  test("with --lean, the lean board's paced rows stand beside the same floor, and the JSON gains lean_* keys", () => {
    const base = result();
    const withLean = {
      ...base,
      runs: base.runs.map((r) => ({
        ...r,
        paced: r.paced === null ? null : { ...r.paced, lean: { ask: P(3, 6, 9, 12), answer: P(2.5, 5, 7.5, 10) } },
      })),
    };
    const text = renderReport(withLean);
    assert.match(
      text,
      /\| 50 +\| paced 100\/s, lean board +\| ask +\| 3\.00 +\| 6\.00 +\| 9\.00 +\| 12\.0 +\| 2\.00 +\| 4\.00 +\| 5\.00 +\| 8\.00 +\| 1\.50x +\| 1\.80x +\|/,
    );
    assert.match(text, /The lean board \(--lean\) takes its turn in the same blocks/);
    assert.match(text, /Warm-up \(not recorded\): 300 round trips per session on every side\./);
    assert.doesNotMatch(renderReport(base), /lean board/);
    const runs = (jsonReport(withLean) as { runs: Array<Record<string, unknown>> }).runs;
    assert.deepEqual(runs[1]!.lean_ask_ms, { p50: 3, p95: 6, p99: 9, max: 12 });
    assert.deepEqual(runs[1]!.lean_answer_ms, { p50: 2.5, p95: 5, p99: 7.5, max: 10 });
    assert.equal(
      "lean_ask_ms" in (jsonReport(base) as { runs: Array<Record<string, unknown>> }).runs[1]!,
      false,
      "without --lean the object is the issue's exactly",
    );
    assert.deepEqual(checkTargets(withLean), checkTargets(base), "the targets are the product's alone");
  });
  test("cpuDelta divides each role's difference by the round trips", () => {
    const before = { backend: 100, agentctl: 50, agent: 10, operator: 20 };
    const after = { backend: 300, agentctl: 150, agent: 30, operator: 60 };
    assert.deepEqual(cpuDelta(before, after, 100), { backend: 2, agentctl: 1, agent: 0.2, operator: 0.4 });
  });
});
