// The benchmark's result model, its targets, the printed table and the --json object. Pure.
import { ratio, round, roundPercentiles, type Percentiles } from "./stats.js";

/** Ask and answer latency of one pass, on the product and on the floor. */
export interface Latencies {
  ask: Percentiles;
  answer: Percentiles;
  floorAsk: Percentiles;
  floorAnswer: Percentiles;
}

/** Ask and answer latency of the lean board (`--lean`), measured in the paced pass beside the floor. */
export interface LeanLatencies {
  ask: Percentiles;
  answer: Percentiles;
}

/**
 * One run: N concurrent sessions on the product and on the floor, in two passes. Saturated: every
 * question answered at once (round trips per second, CPU). Paced: at most `rate` questions per
 * second across the sessions (latency below saturation; see plan.ts), or null when disabled.
 */
export interface RunResult {
  sessions: number;
  /** Round trips of the saturated pass on the product path (N x R). */
  roundTrips: number;
  saturated: Latencies;
  paced: (Latencies & { rate: number; thinkMs: number; roundTrips: number; lean?: LeanLatencies }) | null;
  roundTripsPerS: number;
  floorRoundTripsPerS: number;
  /** CPU ms per round trip, per role, on the product path and on the floor. */
  cpu: RoleCpu;
  floorCpu: RoleCpu;
}

/** CPU ms of each role of one stack (a backend, its agentctls, their agents) and of the benchmark's operator. */
export interface RoleCpu {
  backend: number;
  agentctl: number;
  agent: number;
  operator: number;
}

/** Per-role CPU between two readings, divided by `per` (e.g. round trips). */
export function cpuDelta(before: RoleCpu, after: RoleCpu, per: number): RoleCpu {
  const d = (k: keyof RoleCpu) => (after[k] - before[k]) / Math.max(1, per);
  return { backend: d("backend"), agentctl: d("agentctl"), agent: d("agent"), operator: d("operator") };
}

/** RSS in kB, summed per role. */
export interface RssKb {
  backend: number;
  agentctl: number;
}

export interface MemoryResult {
  pending: number;
  sessions: number;
  baseline: RssKb;
  withPending: RssKb;
  settled: RssKb;
  /** Backend records still pending after the settle, and bench turns whose answers did not all arrive. */
  leftPendingRecords: number;
  unansweredAtAgent: number;
  /** The "no growth" check: RSS before and after `roundTrips` more round trips (null = skipped). */
  growth: { roundTrips: number; before: RssKb; after: RssKb } | null;
}

export interface BoardResult {
  tasks: number;
  /** The rows the board opens with (its first page; all of them on a smaller board). */
  rows: number;
  /** Navigation start -> the first page of task rows in the DOM on the first load (server and browser cold). */
  coldRenderMs: number;
  /** The same on each later load of the page. */
  renderMs: number[];
  /** WS frame received in the page -> the task's icon changed in the DOM, per icon change. */
  iconMs: number[];
}

export interface Machine {
  cpus: number;
  model: string;
  memoryGb: number;
  node: string;
  os: string;
  /** 1-minute load average when the run started and when it ended (other work on the machine shows here). */
  load: { start: number; end: number };
  /** Share of the run's CPU time the hypervisor gave to other guests (/proc/stat steal); null = unknown. */
  stealPct: number | null;
  /** Share of the run's CPU time idle while a task waited on the disk (/proc/stat iowait); null = unknown. */
  iowaitPct: number | null;
  /** Seconds in the run during which some task waited on the disk (/proc/pressure/io `some`); null = unknown. */
  ioStallS: number | null;
  /**
   * Whether the kernel schedules each session as a group (sched_autogroup_enabled): then every
   * agentctl, a session of its own, competes for the CPU as a group, by its group's nice; null =
   * unknown (no such setting).
   */
  autogroups: boolean | null;
}

export interface BenchResult {
  machine: Machine;
  roundTripsPerSession: number;
  /** Unrecorded round trips per session before the first pass. */
  warmupPerSession: number;
  runs: RunResult[];
  memory: MemoryResult | null;
  board: BoardResult | { error: string } | null;
  durationS: number;
}

const total = (r: RssKb) => r.backend + r.agentctl;

/** The latency a run reports: the paced pass when there was one, else the saturated pass. */
export function reported(run: RunResult): Latencies {
  return run.paced ?? run.saturated;
}

/** The memory figures of the issue: kB per pending across backend and agentctl, and what stayed. */
export function memoryFigures(m: MemoryResult): {
  kbPerPending: number;
  retainedKb: number;
  retainedPct: number;
  growthKb: number | null;
  growthPct: number | null;
} {
  const base = total(m.baseline);
  const retainedKb = total(m.settled) - base;
  const growthKb = m.growth === null ? null : total(m.growth.after) - total(m.growth.before);
  return {
    kbPerPending: (total(m.withPending) - base) / m.pending,
    retainedKb,
    retainedPct: base === 0 ? 0 : (100 * retainedKb) / base,
    growthKb,
    growthPct: growthKb === null || m.growth === null ? null : (100 * growthKb) / Math.max(1, total(m.growth.before)),
  };
}

/** The JSON object of the issue, exactly: `{runs: [...], memory: {...}}`. */
export function jsonReport(result: BenchResult): object {
  const mem = result.memory === null ? null : memoryFigures(result.memory);
  return {
    runs: result.runs.map((r) => {
      const l = reported(r);
      return {
        sessions: r.sessions,
        ask_ms: roundPercentiles(l.ask),
        answer_ms: roundPercentiles(l.answer),
        floor_ask_ms: roundPercentiles(l.floorAsk),
        floor_answer_ms: roundPercentiles(l.floorAnswer),
        round_trips_per_s: round(r.roundTripsPerS, 1),
        // Only with --lean, so the object is the issue's exactly without it.
        ...(r.paced?.lean === undefined
          ? {}
          : { lean_ask_ms: roundPercentiles(r.paced.lean.ask), lean_answer_ms: roundPercentiles(r.paced.lean.answer) }),
      };
    }),
    memory:
      result.memory === null || mem === null
        ? null
        : { pending: result.memory.pending, kb_per_pending: round(mem.kbPerPending, 2), retained_kb_after_settle: Math.round(mem.retainedKb) },
  };
}

export interface TargetCheck {
  target: string;
  measured: string;
  ok: boolean;
}

/** The question's guard (issue 35 item 5): medians within this many times the relay floor... */
export const MEDIAN_X_FLOOR = 4;
/** ... and at least this many round trips a second, at the largest session count. */
export const MIN_ROUND_TRIPS_PER_S = 400;

/** The targets, checked at the largest session count that ran (the issue says 50). */
export function checkTargets(result: BenchResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const run = result.runs.at(-1);
  if (run !== undefined) {
    const at = `@${run.sessions}${run.paced === null ? " saturated" : ` paced ${run.paced.rate}/s`}`;
    const l = reported(run);
    for (const [name, v, f] of [
      ["ask", l.ask, l.floorAsk],
      ["answer", l.answer, l.floorAnswer],
    ] as const) {
      // Medians, not tails: on two shared cores the p99 measures the neighbours, not the board.
      const x = ratio(v, f).p50;
      checks.push({
        target: `${name} median <= ${MEDIAN_X_FLOOR}x floor ${at}`,
        measured: `${fmtX(x)} (${fmtMs(v.p50)} ms, floor ${fmtMs(f.p50)} ms)`,
        ok: x <= MEDIAN_X_FLOOR,
      });
    }
    checks.push({
      target: `>= ${MIN_ROUND_TRIPS_PER_S} round trips/s @${run.sessions}`,
      measured: `${round(run.roundTripsPerS, 1)}/s`,
      ok: run.roundTripsPerS >= MIN_ROUND_TRIPS_PER_S,
    });
  }
  if (result.memory !== null) {
    const m = memoryFigures(result.memory);
    checks.push({
      target: `< 20 KB RSS per pending (${result.memory.pending} pending)`,
      measured: `${round(m.kbPerPending, 2)} KB`,
      ok: m.kbPerPending < 20,
    });
    const empty = result.memory.leftPendingRecords === 0 && result.memory.unansweredAtAgent === 0;
    checks.push({
      target: "after settle: pending maps empty, RSS within 10% of baseline",
      measured: `${empty ? "empty" : `${result.memory.leftPendingRecords} records / ${result.memory.unansweredAtAgent} at agents left`}, ${signed(Math.round(m.retainedKb))} KB (${signed(round(m.retainedPct, 1))}%)`,
      ok: empty && m.retainedPct <= 10,
    });
    if (m.growthKb !== null && m.growthPct !== null && result.memory.growth !== null) {
      checks.push({
        target: `no growth after ${result.memory.growth.roundTrips} round trips (within 10%)`,
        measured: `${signed(Math.round(m.growthKb))} KB (${signed(round(m.growthPct, 1))}%)`,
        ok: m.growthPct <= 10,
      });
    }
  }
  if (result.board !== null && "error" in result.board) {
    checks.push({ target: "board in Chromium", measured: `not measured: ${result.board.error}`, ok: false });
  } else if (result.board !== null) {
    const b = result.board;
    const worst = Math.max(...b.renderMs);
    checks.push({
      target: `a board of ${b.tasks} tasks opens < 1 s (${b.rows} rows, every warm load)`,
      measured: `${fmtMs(worst)} ms worst of ${b.renderMs.length} (cold: ${fmtMs(b.coldRenderMs)} ms)`,
      ok: worst < 1000,
    });
    const iconMax = b.iconMs.length === 0 ? Infinity : Math.max(...b.iconMs);
    checks.push({
      target: "icon updates < 100 ms after its WS event (every update)",
      measured: `${fmtMs(iconMax)} ms worst of ${b.iconMs.length}`,
      ok: iconMax < 100,
    });
  }
  return checks;
}

function fmtMs(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}
const fmtX = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}x` : String(n));
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** A Markdown table: a header row, a separator, then rows (cells padded to line up in a terminal). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

const pct = (p: Percentiles) => [fmtMs(p.p50), fmtMs(p.p95), fmtMs(p.p99), fmtMs(p.max)];

/** The disk's share of the run: the board's writes wait there when it is slow (BENCHMARKS.md). */
export function describeDiskWait(m: Pick<Machine, "iowaitPct" | "ioStallS">): string {
  const iowait = m.iowaitPct === null ? "I/O wait unknown" : `I/O wait ${m.iowaitPct.toFixed(1)}% of the run`;
  const stall = m.ioStallS === null ? "" : `, ${m.ioStallS.toFixed(1)} s with some task waiting on the disk (/proc/pressure/io)`;
  return iowait + stall;
}

/** Everything a human reads: latency, throughput, memory, board, and the targets. */
export function renderReport(result: BenchResult): string {
  const out: string[] = [];
  const m = result.machine;
  out.push(
    `Machine: ${m.cpus} x ${m.model}, ${m.memoryGb} GB RAM, Node ${m.node}, ${m.os}; load average ${m.load.start.toFixed(1)} at start, ${m.load.end.toFixed(1)} at end; ` +
      (m.stealPct === null
        ? "CPU steal unknown"
        : `CPU steal ${m.stealPct.toFixed(1)}% of the run (CPU time the host gave to other guests; 0 on a dedicated machine)`) +
      `; ${describeDiskWait(m)}` +
      `; kernel autogroups ${m.autogroups === null ? "unknown" : m.autogroups ? "on" : "off"}`,
  );
  out.push(
    `Warm-up (not recorded): ${result.warmupPerSession} round trips per session on ${result.runs.some((r) => r.paced?.lean !== undefined) ? "every side" : "both sides"}. ` +
      `Saturated pass: ${result.roundTripsPerSession} serial round trips per session, each question answered at once. ` +
      "Paced pass: the same, with the operator's think time set so all sessions together offer at most the given questions/s, " +
      "in blocks the floor and the product take turns at. " +
      (result.runs.some((r) => r.paced?.lean !== undefined)
        ? "The lean board (--lean) takes its turn in the same blocks: the same processes and hops doing the least any board must on a question; its rows compare it with the same floor. "
        : "") +
      "Latencies in ms.",
    "",
  );
  const rows = (r: RunResult, load: string, l: Latencies) => [
    [String(r.sessions), load, "ask", ...pct(l.ask), ...pct(l.floorAsk), fmtX(ratio(l.ask, l.floorAsk).p50), fmtX(ratio(l.ask, l.floorAsk).p99)],
    [
      String(r.sessions),
      load,
      "answer",
      ...pct(l.answer),
      ...pct(l.floorAnswer),
      fmtX(ratio(l.answer, l.floorAnswer).p50),
      fmtX(ratio(l.answer, l.floorAnswer).p99),
    ],
  ];
  const latencyRows = result.runs.flatMap((r) => [
    ...(r.paced === null ? [] : rows(r, `paced ${r.paced.rate}/s`, r.paced)),
    ...(r.paced?.lean === undefined ? [] : rows(r, `paced ${r.paced.rate}/s, lean board`, { ...r.paced, ...r.paced.lean })),
    ...rows(r, "saturated", r.saturated),
  ]);
  out.push(
    markdownTable(
      ["sessions", "load", "path", "p50", "p95", "p99", "max", "floor p50", "floor p95", "floor p99", "floor max", "x floor p50", "x floor p99"],
      latencyRows,
    ),
    "",
  );
  out.push(
    markdownTable(
      ["sessions", "round trips", "round trips/s", "floor round trips/s"],
      result.runs.map((r) => [
        String(r.sessions),
        String(r.roundTrips),
        round(r.roundTripsPerS, 1).toFixed(1),
        round(r.floorRoundTripsPerS, 1).toFixed(1),
      ]),
    ),
    "",
  );
  const cpuTotal = (c: RoleCpu) => c.backend + c.agentctl + c.agent + c.operator;
  const ms = (n: number) => n.toFixed(3);
  out.push(
    "CPU ms per round trip (all sessions' processes of each role summed; 10 ms tick resolution per process):",
    markdownTable(
      ["sessions", "backend", "agentctl", "agent", "operator", "total", "floor backend", "floor agentctl", "floor agent", "floor total"],
      result.runs.map((r) => [
        String(r.sessions),
        ms(r.cpu.backend),
        ms(r.cpu.agentctl),
        ms(r.cpu.agent),
        ms(r.cpu.operator),
        ms(cpuTotal(r.cpu)),
        ms(r.floorCpu.backend),
        ms(r.floorCpu.agentctl),
        ms(r.floorCpu.agent),
        ms(cpuTotal(r.floorCpu)),
      ]),
    ),
    "",
  );
  if (result.memory !== null) {
    const mem = result.memory;
    const f = memoryFigures(mem);
    const row = (name: string, r: RssKb) => [name, String(r.backend), String(r.agentctl), String(total(r))];
    const rows = [
      row("baseline (settled, warm)", mem.baseline),
      row(`${mem.pending} pending`, mem.withPending),
      row("after settling them", mem.settled),
    ];
    if (mem.growth !== null)
      rows.push(
        row(`before ${mem.growth.roundTrips} round trips`, mem.growth.before),
        row(`after ${mem.growth.roundTrips} round trips`, mem.growth.after),
      );
    out.push(
      `Memory (RSS, kB) with ${mem.sessions} sessions: ${round(f.kbPerPending, 2)} KB per pending; ${signed(Math.round(f.retainedKb))} KB retained after settle.`,
    );
    out.push(markdownTable(["state", "backend", `agentctl (x${mem.sessions})`, "total"], rows), "");
  }
  if (result.board !== null) {
    if ("error" in result.board) out.push(`Board: not measured (${result.board.error})`, "");
    else {
      const b = result.board;
      out.push(
        `Board (Chromium): ${b.tasks} tasks, the first ${b.rows} rows in the DOM ${fmtMs(b.coldRenderMs)} ms after navigation start on the cold load, ` +
          `then ${b.renderMs.map((x) => fmtMs(x)).join(" / ")} ms; icon on screen (next frame after the DOM change) after its task.updated frame: ` +
          `${b.iconMs.length} updates, median ${fmtMs(median(b.iconMs))} ms, max ${fmtMs(Math.max(...b.iconMs))} ms.`,
        "",
      );
    }
  }
  out.push(
    markdownTable(
      ["target", "measured", "met"],
      checkTargets(result).map((c) => [c.target, c.measured, c.ok ? "yes" : "NO"]),
    ),
  );
  out.push("", `Total time ${result.durationS.toFixed(0)} s.`);
  return out.join("\n");
}

function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}
