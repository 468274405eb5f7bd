// Spawns the BUILT agentctl CLI as a real process, the way the backend does.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { StreamClient } from "./stream-client.js";

export const AGENTCTL_CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
export const MOCK_AGENT_CLI = fileURLToPath(new URL("../../mock-agent/dist/cli.js", import.meta.url));

export interface AgentctlProcess {
  child: ChildProcessWithoutNullStreams;
  port: number;
  token: string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): void;
}

const running = new Set<AgentctlProcess>();
/** Kills every agentctl a test started and did not stop itself (call from `after`). */
export function killAll(): void {
  for (const p of running) p.kill();
  running.clear();
}

export interface SpawnResult {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns agentctl with raw args/env (for start-up failure tests). */
export function spawnAgentctl(args: string[], env: Record<string, string | undefined>): SpawnResult {
  const fullEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) fullEnv[k] = v;
  const child = spawn(process.execPath, [AGENTCTL_CLI, ...args], { env: fullEnv, stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Starts agentctl (token via AGENTCTL_TOKEN) and waits for its listening line. */
export async function startAgentctlProcess(env: Record<string, string> = {}): Promise<AgentctlProcess> {
  const token = randomBytes(16).toString("hex");
  const r = spawnAgentctl(["--port", "0"], { AGENTCTL_TOKEN: token, ...env });
  const proc: AgentctlProcess = {
    child: r.child,
    port: 0,
    token,
    stderr: r.stderr,
    exited: r.exited,
    kill: () => {
      if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill("SIGKILL");
    },
  };
  running.add(proc);
  proc.port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`agentctl did not listen; stderr: ${r.stderr()}`)), 30_000);
    const check = () => {
      const line = r.stdout().split("\n")[0];
      if (line === undefined || !r.stdout().includes("\n")) return;
      clearTimeout(timer);
      r.child.stdout.off("data", check);
      const parsed = JSON.parse(line) as { event: string; port: number };
      if (parsed.event !== "listening") reject(new Error(`unexpected first line ${line}`));
      resolve(parsed.port);
    };
    r.child.stdout.on("data", check);
    void r.exited.then(() => reject(new Error(`agentctl exited before listening; stderr: ${r.stderr()}`)));
  });
  return proc;
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "kandev-"));
}

export interface Session {
  ctl: AgentctlProcess;
  client: StreamClient;
  sessionId: string;
  logFile: string;
  initResult: Record<string, unknown>;
}

/** agentctl + mock agent, configured, initialized, with one ACP session. */
export async function startSession(
  configure: Record<string, unknown> = {},
  env: Record<string, string> = {},
): Promise<Session> {
  const ctl = await startAgentctlProcess(env);
  const client = await StreamClient.connect(ctl.port, ctl.token);
  const logFile = path.join(tempDir(), "frames.jsonl");
  await client.call("agent.configure", {
    agent: { command: [process.execPath, MOCK_AGENT_CLI], env: { MOCK_AGENT_LOG: logFile } },
    agent_id: "mock",
    features: { acpElicitation: false },
    ...configure,
  });
  const initResult = await client.call("agent.initialize", {});
  const { session_id } = await client.call<{ session_id: string }>("agent.session.new", {});
  return { ctl, client, sessionId: session_id, logFile, initResult };
}

/** The text of `agent_message_chunk` session updates of one turn, in arrival order. */
export function turnText(client: StreamClient, turnId: string): string {
  return client
    .eventsOf("session.update")
    .map((e) => e.payload as { turn_id: string | null; update: { kind: string; text?: string } })
    .filter((p) => p.turn_id === turnId && p.update.kind === "agent_message_chunk")
    .map((p) => p.update.text)
    .join("");
}

/** True once `pid` no longer names a live process. */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}
