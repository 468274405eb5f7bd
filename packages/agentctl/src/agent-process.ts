// Spawns the agent command and watches it: stdio pipes, stderr tail and line events, exit.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { ProtocolError } from "@kandev/protocol";
import { LineRateLimiter, LineSplitter, TailBuffer } from "./stderr-lines.js";

export const STDERR_TAIL_CHARS = 4096;

export interface AgentProcessOptions {
  command: readonly string[];
  /** The full environment of the agent (already merged over agentctl's sanitised env). */
  env: Record<string, string>;
  cwd?: string | undefined;
  /** One call per stderr line (cut and rate-limited). */
  onStderrLine: (text: string) => void;
  now?: () => number;
}

export interface AgentExit {
  code: number | null;
  signal: string | null;
  stderrTail: string;
}

/** A running agent. `exited` resolves once the process has exited and its stdio is fully read. */
export class AgentProcess {
  readonly exited: Promise<AgentExit>;
  private exitInfo: AgentExit | null = null;

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    tail: TailBuffer,
    onStderrLine: (text: string) => void,
    now: () => number,
  ) {
    const splitter = new LineSplitter();
    const limiter = new LineRateLimiter(50, 200, now());
    const forward = (lines: string[]) => {
      for (const line of lines) for (const out of limiter.admit(line, now())) onStderrLine(out);
    };
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      tail.append(chunk);
      forward(splitter.push(chunk));
    });
    // EPIPE on a dead agent's stdin must not crash agentctl; the exit path reports what happened.
    child.stdin.on("error", () => {});
    this.exited = new Promise<AgentExit>((resolve) => {
      child.once("close", (code, signal) => {
        forward(splitter.flush());
        this.exitInfo = { code, signal, stderrTail: tail.text() };
        resolve(this.exitInfo);
      });
    });
  }

  /** Starts the command; rejects with BAD_REQUEST when it cannot be started (missing binary, bad cwd). */
  static async start(options: AgentProcessOptions): Promise<AgentProcess> {
    const [file, ...args] = options.command;
    if (file === undefined) throw new ProtocolError("VALIDATION_ERROR", "agent command is empty");
    // A process group of its own: stopping the agent also stops what it started (builds, tests,
    // tools), and one agent's group never contains another session's agent.
    const child = spawn(file, args, { env: options.env, cwd: options.cwd, stdio: "pipe", detached: true });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (err) => reject(new ProtocolError("BAD_REQUEST", `cannot start agent command "${file}": ${err.message}`)));
    });
    return new AgentProcess(child, new TailBuffer(STDERR_TAIL_CHARS), options.onStderrLine, options.now ?? Date.now);
  }

  get pid(): number | null {
    return this.child.pid ?? null;
  }

  get running(): boolean {
    return this.exitInfo === null;
  }

  /**
   * Closes stdin, sends SIGTERM to the agent's process group, and SIGKILL after `graceMs`; resolves
   * when the agent is gone. Whatever it left in its group then gets SIGKILL, so nothing is orphaned.
   */
  async stop(graceMs = 2000): Promise<AgentExit> {
    const pid = this.child.pid;
    if (this.exitInfo === null) {
      this.child.stdin.end();
      signalGroup(pid, "SIGTERM");
      const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), graceMs);
      try {
        await this.exited;
      } finally {
        clearTimeout(timer);
      }
    }
    signalGroup(pid, "SIGKILL");
    return this.exitInfo!;
  }
}

/** Signals the process group led by `pid` (the agent), or the agent alone if the group is gone. */
function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined || pid <= 0) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
