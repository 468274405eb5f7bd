// Child processes the benchmark starts: wait for their ready line, keep their stderr in a file,
// and stop them (SIGTERM by pid, SIGKILL after a grace period). Nothing else is ever signalled.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createInterface } from "node:readline";

export interface Service {
  readonly pid: number;
  readonly child: ChildProcess;
  /** Resolves once the process has exited. */
  readonly exited: Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface StartOptions {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Where stderr goes (appended). */
  stderrFile: string;
  /** Parses a stdout line; returns the ready value or undefined to keep waiting. */
  ready: (line: string) => string | number | undefined;
  timeoutMs?: number;
}

/** Starts a process and resolves with it and its ready value once it printed its ready line. */
export async function startService(options: StartOptions): Promise<{ service: Service; ready: string | number }> {
  const err = fs.openSync(options.stderrFile, "a");
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", err],
  });
  fs.closeSync(err);
  child.stdin?.on("error", () => undefined);
  let exitedFlag = false;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exitedFlag = true;
      resolve();
    }),
  );
  const service: Service = {
    pid: child.pid ?? -1,
    child,
    exited,
    async stop(graceMs = 5000) {
      if (exitedFlag) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<string | number>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        fail(new Error(`${options.args.join(" ")} printed no ready line within ${options.timeoutMs ?? 30_000} ms (stderr: ${options.stderrFile})`)),
      options.timeoutMs ?? 30_000,
    );
    const onExit = (code: number | null, signal: string | null) =>
      fail(new Error(`${options.args.join(" ")} exited before it was ready (code ${code}, signal ${signal}); stderr: ${tail(options.stderrFile)}`));
    function fail(e: Error) {
      clearTimeout(timer);
      child.off("exit", onExit);
      child.kill("SIGKILL");
      reject(e);
    }
    child.once("exit", onExit);
    lines.on("line", (line) => {
      const value = options.ready(line);
      if (value === undefined) return;
      clearTimeout(timer);
      child.off("exit", onExit);
      resolve(value);
    });
  });
  // Keep draining stdout so a chatty child never blocks on a full pipe.
  lines.removeAllListeners("line");
  lines.on("line", () => undefined);
  return { service, ready };
}

/** `{"event":"listening","port":N}` -> N (agentctl's and the floor relays' ready line). */
export function listeningPort(line: string): number | undefined {
  try {
    const v = JSON.parse(line) as { event?: unknown; port?: unknown };
    return v.event === "listening" && typeof v.port === "number" ? v.port : undefined;
  } catch {
    return undefined;
  }
}

/** The last `bytes` of a file, for error messages. */
export function tail(file: string, bytes = 2000): string {
  try {
    const text = fs.readFileSync(file, "utf8");
    return text.slice(-bytes);
  } catch {
    return "";
  }
}

/** Runs `fn` over `items` with at most `limit` in flight; resolves with results in order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  });
  await Promise.all(workers);
  return out;
}
