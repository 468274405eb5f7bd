// `npm run bench [-- --sessions 1,10,50] [--round-trips N] [--quick] [--json] ...` (see args.ts).
// How fast a question reaches the operator and the answer reaches the agent, side by side with a
// bare relay over the same hops; memory per pending elicitation; the board in Chromium.
// Progress goes to stderr; the table (and with --json the JSON object, last) to stdout.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { parseBenchArgs, UsageError, USAGE, type BenchArgs } from "./args.js";
import { CHROMIUM, measureBoard } from "./board.js";
import { FloorBench } from "./floor.js";
import { measureMemory, steadyRss } from "./memory.js";
import { describeMachine, readCpuStat, readIoPressureUs } from "./procfs.js";
import { ProductBench } from "./product.js";
import type { RecorderLike } from "./recorder.js";
import { SampleFile } from "./sample-file.js";
import { measureSessionCost, renderSessionCost } from "./session-cost.js";
import { measureStreaming } from "./streaming.js";
import { renderStreaming, streamingJson, type StreamingResult } from "./streaming-report.js";
import { floorFirst, paceFor, pacedBlocks, pacing, type Pace } from "./plan.js";
import { cpuDelta, jsonReport, renderReport, type BenchResult, type Latencies, type RoleCpu, type RunResult } from "./report.js";
import { summarize } from "./stats.js";

/**
 * About how long each side's paced pass lasts in a full run: at 50 sessions and 100 questions/s,
 * 6,000 samples a side, so the p99 rests on its 60 slowest rather than a handful of clusters.
 */
const PACED_SECONDS = 60;

/**
 * The pause between the saturated pass and the paced one. About 8 s after a process stops being
 * busy, V8's memory reducer collects and shrinks its heap (see "What is measured" in docs/BENCHMARKS.md);
 * after a saturated pass that is 100 processes at once, which would land in the paced pass's first
 * block, on whichever side runs it.
 */
const PACED_QUIET_MS = 12_000;

const T0 = Date.now();
const log = (line: string) => process.stderr.write(`[bench ${((Date.now() - T0) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);

function checked(what: string, rec: RecorderLike, expected: number): RecorderLike {
  if (rec.errors.length > 0) throw new Error(`${what}: ${rec.errors.length} error(s): ${rec.errors.slice(0, 3).join("; ")}`);
  if (rec.roundTrips !== expected) throw new Error(`${what}: ${rec.roundTrips} of ${expected} round trips completed`);
  return rec;
}

interface Measured {
  rec: RecorderLike;
  cpu: RoleCpu;
}

/** Runs `run` between two CPU readings: the figures plus CPU ms per round trip and role. */
async function measured(what: string, expected: number, cpu: () => RoleCpu, run: () => Promise<RecorderLike>): Promise<Measured> {
  const before = cpu();
  const rec = checked(what, await run(), expected);
  return { rec, cpu: cpuDelta(before, cpu(), rec.roundTrips) };
}

/** Something that runs N sessions of R round trips, at once or paced: the product or the floor. */
interface Runner {
  run(sessions: number, roundTrips: number, pace?: Pace | null): Promise<RecorderLike>;
  cpu(): RoleCpu;
}

type Samples = Pick<RecorderLike, "asks" | "answers">;

/** The samples of several passes of one side, as one. */
function merged(recs: Samples[]): Samples {
  return { asks: recs.flatMap((r) => r.asks), answers: recs.flatMap((r) => r.answers) };
}

function latencies(product: Samples, floor: Samples): Latencies {
  return { ask: summarize(product.asks), answer: summarize(product.answers), floorAsk: summarize(floor.asks), floorAnswer: summarize(floor.answers) };
}

/**
 * One session count: the floor's pass, then the product's, saturated; then the paced pass, in
 * blocks the two sides take turns at (pacedBlocks), so both sides of each ratio run under the same
 * conditions (the machine may be shared).
 */
async function runSessions(
  n: number,
  args: BenchArgs,
  floor: Runner,
  product: Runner,
  lean: Runner | null,
  samples: SampleFile | null,
): Promise<RunResult> {
  const pass = async (side: string, runner: Runner, roundTrips: number, pace: Pace | null) => {
    const m = await measured(
      `${side} @${n}${pace === null ? "" : " paced"}`,
      n * roundTrips,
      () => runner.cpu(),
      () => runner.run(n, roundTrips, pace),
    );
    if (pace === null) log(`${side} @${n}: ${m.rec.rate().toFixed(0)} round trips/s`);
    return m;
  };
  const floorSaturated = await pass("floor", floor, args.roundTrips, null);
  const productSaturated = await pass("product", product, args.roundTrips, null);
  let paced: RunResult["paced"] = null;
  if (args.pacedRate > 0) {
    const p = pacing(n, args.roundTrips, args.pacedRate, args.quick ? 4 : PACED_SECONDS);
    if (!args.quick) await delay(PACED_QUIET_MS);
    const sides = {
      floor: { runner: floor, recs: [] as Samples[] },
      product: { runner: product, recs: [] as Samples[] },
      lean: { runner: lean, recs: [] as Samples[] },
    };
    const order = (["floor", "product", "lean"] as const).filter((side) => sides[side].runner !== null);
    for (const [i, size] of pacedBlocks(p.roundTrips).entries()) {
      // The same seed on every side of a block: the product and the floor see the same think times.
      const pace = () => paceFor(p, n, n * 1000 + i);
      for (const side of floorFirst(i) ? order : [...order].reverse()) {
        const { rec } = await pass(side, sides[side].runner!, size, pace());
        sides[side].recs.push(rec);
        // Written between passes, so no pass pays for it.
        samples?.append(rec, { sessions: n, block: i, side });
      }
    }
    const leanSamples = merged(sides.lean.recs);
    paced = {
      rate: args.pacedRate,
      thinkMs: p.thinkMs,
      roundTrips: p.roundTrips,
      ...latencies(merged(sides.product.recs), merged(sides.floor.recs)),
      ...(lean === null ? {} : { lean: { ask: summarize(leanSamples.asks), answer: summarize(leanSamples.answers) } }),
    };
    log(`paced @${n}: ask p50 ${paced.ask.p50.toFixed(2)} ms (floor ${paced.floorAsk.p50.toFixed(2)} ms)`);
  }
  return {
    sessions: n,
    roundTrips: productSaturated.rec.roundTrips,
    saturated: latencies(productSaturated.rec, floorSaturated.rec),
    paced,
    roundTripsPerS: productSaturated.rec.rate(),
    floorRoundTripsPerS: floorSaturated.rec.rate(),
    cpu: productSaturated.cpu,
    floorCpu: floorSaturated.cpu,
  };
}

/** Starts the floor and the product side by side, runs every session count, then the memory phase. */
async function runLatencyAndMemory(args: BenchArgs, dir: string, samples: SampleFile | null): Promise<Pick<BenchResult, "runs" | "memory">> {
  const max = Math.max(...args.sessions);
  log(`floor: starting ${max} relay sessions`);
  const floor = await FloorBench.start(max, dir);
  let floorOpen = true;
  let product: ProductBench | null = null;
  let lean: FloorBench | null = null;
  try {
    if (args.lean) {
      log(`lean board: starting ${max} sessions`);
      lean = await FloorBench.start(max, dir, "lean");
    }
    log(`product: starting the backend and ${max} sessions (agentctl + mock agent each)`);
    const started = Date.now();
    product = await ProductBench.start(max, dir);
    log(`product: ${product.agentctlCount()} agentctl processes up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // Unrecorded, so each figure is of processes in their steady state (JIT-compiled code, filled
    // caches and pools), as on a board that has run for a while, not of their first minute.
    if (args.warmup > 0) {
      log(`warm-up: ${args.warmup} round trips per session, floor and product${lean === null ? "" : " and lean board"}`);
      checked("floor warm-up", await floor.run(max, args.warmup), max * args.warmup);
      checked("product warm-up", await product.run(max, args.warmup), max * args.warmup);
      if (lean !== null) checked("lean board warm-up", await lean.run(max, args.warmup), max * args.warmup);
    }
    const runs: RunResult[] = [];
    for (const n of args.sessions) runs.push(await runSessions(n, args, floor, product, lean, samples));
    // The relays are idle from here on; stopping them keeps the memory readings about the product alone.
    await floor.close();
    floorOpen = false;
    const leanBoard = lean;
    lean = null;
    await leanBoard?.close();
    const memory = await measureMemory(product, max, {
      pending: args.pending,
      growthRoundTrips: args.growth,
      quietMs: args.quick ? 2000 : 12_000,
      maxMs: args.quick ? 5000 : 40_000,
      log,
    });
    return { runs, memory };
  } catch (err) {
    if (product !== null) log(`backend stderr tail:\n${product.stderrTail()}`);
    throw err;
  } finally {
    if (floorOpen) await floor.close();
    await lean?.close();
    await product?.close();
  }
}

/** The streaming pass (streaming.ts), with the task page when the board is measured. */
function streamingPass(dir: string, args: BenchArgs): Promise<StreamingResult> {
  return measureStreaming({
    dir,
    sessions: args.streamSessions,
    chunks: args.streamChunks,
    page: args.board,
    quick: args.quick,
    chromium: process.env.KANDEV_BENCH_CHROMIUM ?? CHROMIUM.benchExecutablePath,
    log,
  });
}

/** The board figures, or why they could not be taken (the other figures are kept either way). */
async function boardOrError(dir: string, args: BenchArgs): Promise<BenchResult["board"]> {
  log("board: starting the backend with the web app and Chromium");
  try {
    return await measureBoard({ dir, quick: args.quick, chromium: process.env.KANDEV_BENCH_CHROMIUM ?? CHROMIUM.benchExecutablePath, log });
  } catch (err) {
    log(`board: failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return { error: err instanceof Error ? err.message.split("\n")[0]! : String(err) };
  }
}

async function main(): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`bench: ${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const started = Date.now();
  const loadAtStart = os.loadavg()[0]!;
  const cpuAtStart = readCpuStat();
  const ioPressureAtStartUs = readIoPressureUs();
  let samples: SampleFile | null = null;
  try {
    if (args.samplesFile !== null) samples = new SampleFile(args.samplesFile, log);
  } catch (err) {
    process.stderr.write(`bench: cannot write --samples file: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-bench-"));
  log(`logs and databases in ${dir}`);
  if (args.samplesFile !== null) log(`paced samples to ${args.samplesFile}`);
  try {
    if (args.sessionCost) {
      const quietMs = args.quick ? 2000 : 12_000;
      const cost = await measureSessionCost({
        dir,
        counts: [1, 5],
        start: (n, d) => ProductBench.start(n, d),
        steady: (bench) => steadyRss(bench, quietMs, quietMs + 20_000),
        log,
      });
      process.stdout.write(`${renderSessionCost(cost)}\n`);
      if (args.json) process.stdout.write(`${JSON.stringify(cost)}\n`);
      fs.rmSync(dir, { recursive: true, force: true });
      return 0;
    }
    if (args.streamingOnly) {
      const streaming = await streamingPass(dir, args);
      process.stdout.write(`${renderStreaming(streaming)}\n`);
      if (args.json) process.stdout.write(`${JSON.stringify(streamingJson(streaming))}\n`);
      fs.rmSync(dir, { recursive: true, force: true });
      return 0;
    }
    const { runs, memory } = await runLatencyAndMemory(args, dir, samples);
    const board = args.board ? await boardOrError(dir, args) : null;
    const streaming = args.streaming ? await streamingPass(dir, args) : null;
    const result: BenchResult = {
      machine: describeMachine(loadAtStart, cpuAtStart, ioPressureAtStartUs),
      roundTripsPerSession: args.roundTrips,
      warmupPerSession: args.warmup,
      runs,
      memory,
      board,
      durationS: (Date.now() - started) / 1000,
    };
    process.stdout.write(`${renderReport(result)}\n`);
    if (streaming !== null) process.stdout.write(`\n${renderStreaming(streaming)}\n`);
    if (args.json)
      process.stdout.write(`${JSON.stringify({ ...jsonReport(result), ...(streaming !== null && { streaming: streamingJson(streaming) }) })}\n`);
    fs.rmSync(dir, { recursive: true, force: true });
    return 0;
  } catch (err) {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)} (logs kept in ${dir})`);
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
