// Spawns the BUILT agentctl CLI as a real process, the way the backend does, and speaks to it
// over its stdin/stdout.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { StreamLine, type StreamClient } from "./stream-client.js";

export const AGENTCTL_CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
export const MOCK_AGENT_CLI = fileURLToPath(new URL("../../mock-agent/dist/cli.js", import.meta.url));

export interface AgentctlProcess {
  child: ChildProcessWithoutNullStreams;
  /** The agent stream over the process's stdin/stdout. */
  line: StreamLine;
  /** The client of one session on this agentctl (default "s1"). */
  connect(session?: string): StreamClient;
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

/** Spawns agentctl with raw args/env (for start-up failure tests); stdout is collected as text. */
export function spawnAgentctl(args: string[], env: Record<string, string | undefined>): SpawnResult {
  const r = spawnRaw(args, env);
  let stdout = "";
  r.child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  return { ...r, stdout: () => stdout };
}

function spawnRaw(args: string[], env: Record<string, string | undefined>): Omit<SpawnResult, "stdout"> {
  const fullEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) fullEnv[k] = v;
  const child = spawn(process.execPath, [AGENTCTL_CLI, ...args], { env: fullEnv, stdio: "pipe" });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, stderr: () => stderr, exited };
}

/** Starts agentctl in its stdio mode (the only one), as the backend does. */
export async function startAgentctlProcess(env: Record<string, string> = {}): Promise<AgentctlProcess> {
  const r = spawnRaw([], env);
  const line = new StreamLine(r.child.stdin, r.child.stdout);
  const proc: AgentctlProcess = {
    child: r.child,
    line,
    connect: (session = "s1") => line.client(session),
    stderr: r.stderr,
    exited: r.exited,
    kill: () => {
      if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill("SIGKILL");
    },
  };
  running.add(proc);
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

/**
 * agentctl + mock agent, configured, initialized, with one ACP session. `on` adds the session to
 * an agentctl already running (one agentctl serves many sessions).
 */
export async function startSession(
  configure: Record<string, unknown> = {},
  env: Record<string, string> = {},
  on?: { ctl: AgentctlProcess; session: string },
): Promise<Session> {
  const ctl = on?.ctl ?? (await startAgentctlProcess(env));
  const client = ctl.connect(on?.session);
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
