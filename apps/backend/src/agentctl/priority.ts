// Running agentctl, and through it the agent, at a lower CPU priority than the board.
//
// Linux ranks runnable threads in two layers, and both need lowering. A thread's nice value ranks
// it against the other threads of its scheduling group. With autogroups on (the kernel's
// sched_autogroup_enabled, the default of most distributions), every session (setsid) is a group of
// its own, and groups share the CPU by the group's nice value, whatever the nice of their threads.
// agentctl starts in a session of its own (its own process group, so that stopping it stops its
// agent's whole tree), so it lands in a new autogroup that at nice 0 weighs as much as the board's
// whole session, however nice its threads are. So `lowerPriority` sets the process's nice value
// and `AutogroupNicer` its autogroup's.
import fs from "node:fs";
import os from "node:os";
import { setTimeout as delay } from "node:timers/promises";

/** The nice value the kernel allows at most. */
export const MAX_NICE = 19;

/**
 * Sets process `pid` `by` nice levels below this process (at most 19). Returns null, or why it
 * could not (the process is gone, a policy forbids it). `by` 0 does nothing.
 */
export function lowerPriority(pid: number, by: number, sys: Pick<typeof os, "getPriority" | "setPriority"> = os): string | null {
  if (by <= 0) return null;
  try {
    sys.setPriority(pid, Math.min(MAX_NICE, sys.getPriority(0) + by));
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** What `/proc/<pid>/autogroup` says: which autogroup the process is in, and that group's nice. */
export interface Autogroup {
  id: string;
  nice: number;
}

/** Parses `/autogroup-25 nice 0`; null for anything else. */
export function parseAutogroup(text: string): Autogroup | null {
  const m = /^(\/autogroup-\d+) nice (-?\d+)\s*$/.exec(text);
  if (m === null) return null;
  const nice = Number(m[2]);
  return nice < -20 || nice > MAX_NICE ? null : { id: m[1]!, nice };
}

/** The two file operations the nicer needs (a seam for the kernel's refusals in tests). */
export interface AutogroupFiles {
  read(path: string): string;
  write(path: string, text: string): void;
}

const procFiles: AutogroupFiles = {
  read: (p) => fs.readFileSync(p, "utf8"),
  write: (p, text) => fs.writeFileSync(p, text),
};

export interface AutogroupNicerOptions {
  files?: AutogroupFiles;
  /** Wait after the kernel's EAGAIN (it takes one change per 100 ms from an unprivileged process). */
  retryMs?: number;
  /** Attempts per process before giving up. */
  maxAttempts?: number;
  /** How to wait between attempts (default: a timer that does not keep the process alive). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Sets the nice value of other processes' autogroups relative to this process's own, one change at
 * a time: an unprivileged process may change an autogroup's nice once per 100 ms, machine-wide
 * (EAGAIN otherwise), so sessions started together queue here rather than all retrying at once.
 * Never touches the autogroup this process is in.
 */
export class AutogroupNicer {
  private readonly files: AutogroupFiles;
  private readonly retryMs: number;
  private readonly maxAttempts: number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** The previous call's work; each call runs after it (see the class comment). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: AutogroupNicerOptions = {}) {
    this.files = options.files ?? procFiles;
    this.retryMs = options.retryMs ?? 110;
    this.maxAttempts = options.maxAttempts ?? 100;
    this.sleep = options.sleep ?? ((ms) => delay(ms, undefined, { ref: false }));
  }

  /**
   * Puts `pid`'s autogroup `by` nice levels below this process's (at most 19). Resolves with null
   * once done or when there is nothing to do (`by` 0, no autogroups in this kernel or none shown
   * to this process, `pid` in this process's own group, `pid` gone); otherwise with why it could
   * not (a policy, the kernel kept refusing). Never rejects.
   */
  lower(pid: number, by: number): Promise<string | null> {
    // A failure is this call's answer, not the queue's: a rejection here would reject every later
    // call too, and reach the executor as an unhandled rejection.
    const run = this.queue.then(() => this.lowerNow(pid, by)).catch((err: unknown) => describe(err));
    this.queue = run;
    return run;
  }

  private async lowerNow(pid: number, by: number): Promise<string | null> {
    if (by <= 0) return null;
    let own: Autogroup | null;
    try {
      own = parseAutogroup(this.files.read("/proc/self/autogroup"));
    } catch {
      return null; // a kernel without autogroups: the process's nice value is all there is
    }
    // The file is there but says no group we know (empty, as some sandboxes and containers serve
    // it): autogroups do not reach us here either, so there is nothing to rank against.
    if (own === null) return null;
    const path = `/proc/${pid}/autogroup`;
    let text: string;
    try {
      text = this.files.read(path);
    } catch (err) {
      return errorCode(err) === "ENOENT" ? null : describe(err); // ENOENT: it is gone already
    }
    const theirs = parseAutogroup(text);
    if (theirs === null) return `unexpected contents of ${path}: ${JSON.stringify(text.slice(0, 80))}`;
    if (theirs.id === own.id) return null; // lowering it would lower the board too
    const target = String(Math.min(MAX_NICE, own.nice + by));
    for (let attempt = 1; ; attempt++) {
      try {
        this.files.write(path, target);
        return null;
      } catch (err) {
        const code = errorCode(err);
        if (code === "ENOENT" || code === "ESRCH") return null; // it exited meanwhile
        if (code !== "EAGAIN" || attempt >= this.maxAttempts) return describe(err);
      }
      await this.sleep(this.retryMs);
    }
  }
}

function errorCode(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err ? String((err as { code: unknown }).code) : undefined;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
