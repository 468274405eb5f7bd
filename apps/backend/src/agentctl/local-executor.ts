import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { setTimeout as delay } from "node:timers/promises";
import type { Logger } from "../logger.js";

/** How much of agentctl's stderr we keep for error messages. */
const STDERR_TAIL_BYTES = 4096;
/** Grace between SIGTERM and SIGKILL when stopping a process group. */
const KILL_GRACE_MS = 3000;

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface LocalExecutorOptions {
  /** Path to packages/agentctl/dist/cli.js. */
  agentctlCli: string;
  /** Environment for agentctl (and through it the agent); AGENTCTL_TOKEN is added per process. */
  env: Record<string, string>;
  logger: Logger;
  /** How long agentctl may take to print its listening line. */
  startTimeoutMs?: number;
  host?: string;
}

/**
 * One running agentctl. It lives in its own process group (so stopping it also stops the agent it
 * spawned) and holds our stdin pipe open: if the backend dies, agentctl sees EOF and exits.
 */
export class AgentctlProcess {
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | null = null;
  private tail = "";
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly child: ChildProcess,
    readonly token: string,
    readonly host: string,
    public port = 0,
  ) {
    this.exited = new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      }),
    );
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      this.tail = (this.tail + chunk).slice(-STDERR_TAIL_BYTES);
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get url(): string {
    return `ws://${this.host}:${this.port}`;
  }

  isAlive(): boolean {
    return this.exitInfo === null;
  }

  stderrTail(): string {
    return this.tail;
  }

  /** SIGTERM to the whole group, SIGKILL after the grace period; resolves once agentctl has exited. */
  stop(graceMs: number = KILL_GRACE_MS): Promise<void> {
    this.stopping ??= this.doStop(graceMs);
    return this.stopping;
  }

  /** Last resort at process exit: no waiting possible, so kill the group outright. */
  killNow(): void {
    signalGroup(this.pid, "SIGKILL");
  }

  private async doStop(graceMs: number): Promise<void> {
    if (this.isAlive()) {
      signalGroup(this.pid, "SIGTERM");
      const timer = setTimeout(() => signalGroup(this.pid, "SIGKILL"), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    // agentctl is gone; anything left in its group (an agent still exiting, or one that ignored
    // SIGTERM) gets a short moment and is then killed, so nothing is orphaned.
    const deadline = Date.now() + Math.min(graceMs, 1000);
    while (groupExists(this.pid) && Date.now() < deadline) await delay(25);
    if (groupExists(this.pid)) signalGroup(this.pid, "SIGKILL");
    this.child.stdin?.destroy();
  }
}

/** Starts agentctl processes (one per session) and remembers them so none outlives the backend. */
export class LocalExecutor {
  private readonly children = new Set<AgentctlProcess>();

  constructor(private readonly options: LocalExecutorOptions) {}

  /** Spawns agentctl on an ephemeral port and resolves once it listens. */
  async start(): Promise<AgentctlProcess> {
    const token = randomBytes(32).toString("hex");
    const host = this.options.host ?? "127.0.0.1";
    const child = spawn(process.execPath, [this.options.agentctlCli, "--port", "0", "--host", host], {
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...this.options.env, AGENTCTL_TOKEN: token },
    });
    const proc = new AgentctlProcess(child, token, host);
    this.children.add(proc);
    void proc.exited.then((info) => {
      this.children.delete(proc);
      this.options.logger.debug("agentctl exited", { pid: proc.pid, ...info });
    });
    // An EPIPE on stdin after agentctl died must not crash the backend.
    child.stdin?.on("error", () => undefined);
    child.on("error", (err) => this.options.logger.error("agentctl spawn error", { error: err.message }));
    try {
      proc.port = await waitForListening(child, proc, this.options.startTimeoutMs ?? 15_000);
    } catch (err) {
      await proc.stop(500);
      throw err;
    }
    this.options.logger.debug("agentctl listening", { pid: proc.pid, port: proc.port });
    return proc;
  }

  pids(): number[] {
    return [...this.children].map((c) => c.pid);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.children].map((c) => c.stop()));
  }

  killAllNow(): void {
    for (const c of this.children) c.killNow();
  }
}

function waitForListening(child: ChildProcess, proc: AgentctlProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => finish(new Error(`agentctl did not report listening within ${timeoutMs} ms. stderr: ${proc.stderrTail()}`)), timeoutMs);
    const onExit = (code: number | null, signal: string | null) =>
      finish(new Error(`agentctl exited before listening (code ${code}, signal ${signal}). stderr: ${proc.stderrTail()}`));
    const onError = (err: Error) => finish(new Error(`agentctl failed to start: ${err.message}`));
    function finish(result: Error | number): void {
      clearTimeout(timer);
      child.off("exit", onExit);
      child.off("error", onError);
      lines.removeAllListeners("line");
      // Keep draining stdout so a chatty agentctl never blocks on a full pipe.
      lines.on("line", () => undefined);
      if (typeof result === "number") resolve(result);
      else reject(result);
    }
    child.once("exit", onExit);
    child.once("error", onError);
    lines.on("line", (line) => {
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      if (typeof msg === "object" && msg !== null && (msg as { event?: unknown }).event === "listening") {
        const port = (msg as { port?: unknown }).port;
        if (typeof port === "number" && Number.isInteger(port) && port > 0) finish(port);
      }
    });
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  if (pid <= 0) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function groupExists(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}
