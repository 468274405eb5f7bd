import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** A board started by a spec for settings the shared boards do not have. */
export interface StartedBoard {
  url: string;
  stop(): Promise<void>;
}

const repoRoot = path.resolve(__dirname, "..");
const BOARD_LINE = /Kandev board: (http:\/\/\S+)/;

/**
 * Starts the built board on a free port with a fresh database and `env` added, in its own process
 * group (agentctl and agents go down with it), and resolves once `/api/v1/health` answers.
 */
export async function startBoard(env: Record<string, string>, timeoutMs = 60_000): Promise<StartedBoard> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-e2e-board-"));
  const child = spawn(process.execPath, ["apps/backend/dist/main.js"], {
    cwd: repoRoot,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      KANDEV_HOST: "127.0.0.1",
      KANDEV_PORT: "0",
      KANDEV_DB_PATH: path.join(dir, "kandev.db"),
      KANDEV_PROFILE: "e2e",
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
  });
  let output = "";
  const stop = async () => {
    await killGroup(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`board did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const m = BOARD_LINE.exec(output);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`board exited with ${code} before listening:\n${output}`));
      });
    });
    await waitForHealth(url, timeoutMs);
    return { url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`board at ${url} never became healthy`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function killGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), sig);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}
