import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as delay } from "node:timers/promises";
import { LineFramer } from "@kandev/acp-stdio";
import { ProtocolError } from "@kandev/protocol";
import type { Logger } from "../logger.js";
import type { Transport } from "./transport.js";

/** How much of agentctl's stderr (its log) we keep for error messages. */
const STDERR_TAIL_CHARS = 4096;
/** Grace between SIGTERM and SIGKILL when stopping agentctl. */
export const KILL_GRACE_MS = 3000;
/** The longest line read from agentctl; a longer one is dropped and logged. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface StdioTransportOptions {
  /** Path to packages/agentctl/dist/cli.js, run with the Node that runs the board. */
  agentctlCli: string;
  /**
   * agentctl's environment, and through it every agent's: the board's without its settings and
   * credentials (server.ts, agentctl's `agentEnvFrom`); agentctl needs none of them.
   */
  env: Record<string, string>;
  logger: Logger;
}

/**
 * agentctl spawned on this host, spoken to over its stdin/stdout. It leads its own process group;
 * if the backend dies, agentctl sees its stdin end and stops every agent. A pipe cannot lose a
 * line while both processes live, so the channel is lost only when agentctl is.
 */
export class StdioTransport implements Transport {
  readonly closed: Promise<Error | undefined>;
  private resolveClosed!: (err: Error | undefined) => void;
  private receiver: (line: string) => void = () => undefined;
  private tail = "";
  private exited = false;
  private stopping: Promise<void> | null = null;
  private readonly exit: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly logger: Logger,
  ) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    const framer = new LineFramer(MAX_LINE_BYTES);
    const deliver = (items: ReturnType<LineFramer["push"]>) => {
      for (const item of items) {
        if ("line" in item) this.receiver(item.line);
        else logger.warn("agentctl sent a line over the limit; dropped", { bytes: item.tooLong });
      }
    };
    child.stdout!.on("data", (chunk: Buffer) => deliver(framer.push(chunk)));
    child.stdout!.on("end", () => deliver(framer.flush()));
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      this.tail = (this.tail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    // An EPIPE on stdin after agentctl died must not crash the backend; the exit says what happened.
    child.stdin!.on("error", () => undefined);
    this.exit = new Promise((resolve) =>
      child.once("close", (code, signal) => {
        this.exited = true;
        resolve();
        const why = `agentctl exited (code ${code}, signal ${signal})`;
        this.resolveClosed(
          this.stopping !== null ? undefined : new ProtocolError("NOT_CONNECTED", this.tail.trim().length > 0 ? `${why}: ${this.tail.trim()}` : why),
        );
      }),
    );
  }

  /** Spawns agentctl; resolves once the process exists (it needs no handshake to take frames). */
  static async start(options: StdioTransportOptions): Promise<StdioTransport> {
    const child = spawn(process.execPath, [options.agentctlCli], {
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env: options.env,
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (err) => reject(new ProtocolError("NOT_CONNECTED", `agentctl failed to start: ${err.message}`)));
    });
    child.on("error", (err) => options.logger.error("agentctl process error", { error: err.message }));
    return new StdioTransport(child, options.logger);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** The end of agentctl's log, for error messages. */
  stderrTail(): string {
    return this.tail;
  }

  send(line: string): void {
    const stdin = this.child.stdin!;
    if (this.exited || this.stopping !== null || stdin.destroyed || stdin.writableEnded) {
      throw new ProtocolError("NOT_CONNECTED", "agentctl is not running");
    }
    stdin.write(`${line}\n`);
  }

  onLine(receiver: (line: string) => void): void {
    this.receiver = receiver;
  }

  /** SIGTERM to agentctl's group, SIGKILL after the grace; then anything left in it. Idempotent. */
  close(graceMs: number = KILL_GRACE_MS): Promise<void> {
    this.stopping ??= this.stop(graceMs);
    return this.stopping;
  }

  /** Last resort at process exit: no waiting possible, so kill the group outright. */
  killNow(): void {
    signalGroup(this.pid, "SIGKILL");
  }

  private async stop(graceMs: number): Promise<void> {
    if (!this.exited) {
      signalGroup(this.pid, "SIGTERM");
      const timer = setTimeout(() => signalGroup(this.pid, "SIGKILL"), graceMs);
      await this.exit;
      clearTimeout(timer);
    }
    const deadline = Date.now() + Math.min(graceMs, 1000);
    while (groupExists(this.pid) && Date.now() < deadline) await delay(25);
    if (groupExists(this.pid)) signalGroup(this.pid, "SIGKILL");
    this.child.stdin?.destroy();
    this.logger.debug("agentctl stopped", { pid: this.pid });
  }
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
