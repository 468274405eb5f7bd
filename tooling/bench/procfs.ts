// Linux /proc readers: RSS of a process, the children of a process, and the machine description.
import fs from "node:fs";
import os from "node:os";
import type { Machine, RoleCpu } from "./report.js";

/** VmRSS of `pid` in kB, or 0 when the process is gone. */
export function rssKb(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m === null ? 0 : Number(m[1]);
  } catch {
    return 0;
  }
}

/** Parent pid from /proc/<pid>/stat (the command name may hold spaces and parentheses). */
export function parentOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[1]);
  } catch {
    return null;
  }
}

/** CPU time (user + system) `pid` has used so far, in ms; 0 when the process is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the command name, in clock ticks.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** USER_HZ: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS = 100;

/** Pids whose parent is `pid` (for the backend: its agentctl processes). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    if (parentOf(Number(name)) === pid) out.push(Number(name));
  }
  return out.sort((a, b) => a - b);
}

/** Reads the CPU time of a backend (real or relay), its agentctls and their children, and of the benchmark itself. */
export function roleCpu(backendPid: number, agentctlPids: readonly number[]): RoleCpu {
  const own = process.cpuUsage();
  return {
    backend: cpuMs(backendPid),
    agentctl: agentctlPids.reduce((a, p) => a + cpuMs(p), 0),
    agent: agentctlPids.reduce((a, p) => a + childrenOf(p).reduce((b, c) => b + cpuMs(c), 0), 0),
    operator: (own.user + own.system) / 1000,
  };
}

/**
 * `write_bytes` of a /proc/<pid>/io text: the bytes the process caused to be sent to storage,
 * counted when it dirties a page of the page cache (a page dirtied again before it was written
 * back is not counted twice), so it is what the process's writes cost the disk, not what its
 * write() calls passed (that is `wchar`, which also counts pipes and sockets). Null when absent.
 */
export function parseWriteBytes(text: string): number | null {
  const m = /^write_bytes:\s+(\d+)$/m.exec(text);
  return m === null ? null : Number(m[1]);
}

/** parseWriteBytes of a live process; 0 when it is gone or its io file cannot be read. */
export function writeBytes(pid: number): number {
  try {
    return parseWriteBytes(fs.readFileSync(`/proc/${pid}/io`, "utf8")) ?? 0;
  } catch {
    return 0;
  }
}

/** Sum of the RSS of `pids`, in kB. */
export function sumRssKb(pids: readonly number[]): number {
  return pids.reduce((acc, p) => acc + rssKb(p), 0);
}

/**
 * The machine's CPU time so far (all CPUs, clock ticks): in total, stolen by the hypervisor, and
 * idle while some task waited on the disk (iowait).
 */
export interface CpuStat {
  total: number;
  steal: number;
  iowait: number;
}

/**
 * Parses the `cpu` line of /proc/stat: user nice system idle iowait irq softirq steal [guest
 * guest_nice]. guest time is already counted in user and nice, so it is not added again.
 */
export function parseCpuStat(text: string): CpuStat | null {
  const line = /^cpu\s+([\d ]+)$/m.exec(text);
  if (line === null) return null;
  const f = line[1]!.trim().split(/\s+/).map(Number);
  if (f.length < 8 || f.some((n) => !Number.isFinite(n))) return null;
  return { total: f.slice(0, 8).reduce((a, n) => a + n, 0), steal: f[7]!, iowait: f[4]! };
}

export function readCpuStat(): CpuStat | null {
  try {
    return parseCpuStat(fs.readFileSync("/proc/stat", "utf8"));
  } catch {
    return null;
  }
}

/**
 * Percentage of the CPU time between two readings spent as `field`. `steal`: what the hypervisor
 * gave to other guests (0 on a machine of our own; on a shared host every figure of the run is
 * slower by about as much, and its latency tail longer). `iowait`: idle while a task waited on the
 * disk. Null when unknown.
 */
export function cpuSharePercent(before: CpuStat | null, after: CpuStat | null, field: "steal" | "iowait"): number | null {
  if (before === null || after === null || after.total <= before.total) return null;
  return (100 * (after[field] - before[field])) / (after.total - before.total);
}

/**
 * The `some` total of a /proc/pressure file, in microseconds: how long at least one task has
 * waited on that resource since boot. Null when the text has no such line.
 */
export function parsePressureTotalUs(text: string): number | null {
  const m = /^some\s.*\btotal=(\d+)\s*$/m.exec(text);
  return m === null ? null : Number(m[1]);
}

/**
 * How long tasks have waited on the disk so far (/proc/pressure/io, `some`), in microseconds. The
 * board's SQLite writes wait there when the disk is slow (docs/BENCHMARKS.md,
 * "What the tuning concluded"). Null where the kernel keeps no pressure figures.
 */
export function readIoPressureUs(file = "/proc/pressure/io"): number | null {
  try {
    return parsePressureTotalUs(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** Seconds waited on the disk between two readings of readIoPressureUs; null when unknown. */
export function ioStallSeconds(beforeUs: number | null, afterUs: number | null): number | null {
  if (beforeUs === null || afterUs === null || afterUs < beforeUs) return null;
  return (afterUs - beforeUs) / 1e6;
}

/**
 * What the benchmark ran on (recorded with every result); `loadAtStart` is os.loadavg()[0] then,
 * `cpuAtStart` and `ioPressureAtStartUs` the readings taken then.
 */
export function describeMachine(loadAtStart: number, cpuAtStart: CpuStat | null = null, ioPressureAtStartUs: number | null = null): Machine {
  let model = os.cpus()[0]?.model ?? "unknown";
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync("/proc/cpuinfo", "utf8"));
    if (m !== null) model = m[1]!.trim();
  } catch {
    // keep os.cpus()'s name
  }
  const cpuNow = readCpuStat();
  return {
    cpus: os.availableParallelism(),
    model,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.versions.node,
    os: `${os.type()} ${os.release()}`,
    load: { start: loadAtStart, end: os.loadavg()[0]! },
    stealPct: cpuSharePercent(cpuAtStart, cpuNow, "steal"),
    iowaitPct: cpuSharePercent(cpuAtStart, cpuNow, "iowait"),
    ioStallS: ioStallSeconds(ioPressureAtStartUs, readIoPressureUs()),
    autogroups: readAutogroupsEnabled(),
  };
}

/** /proc/sys/kernel/sched_autogroup_enabled as a boolean; null where the kernel has no such setting. */
export function readAutogroupsEnabled(path = "/proc/sys/kernel/sched_autogroup_enabled"): boolean | null {
  try {
    const text = fs.readFileSync(path, "utf8").trim();
    return text === "1" ? true : text === "0" ? false : null;
  } catch {
    return null;
  }
}
