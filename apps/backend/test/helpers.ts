// Shared helpers for the backend's integration tests: real agentctl, real mock agent, real sockets.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { applyAppended, type Envelope, type Message, type MessageAppended, type Session, type Task } from "@kandev/protocol";
import { silentLogger } from "../src/logger.js";
import { startServer, type RunningServer, type ServerOptions } from "../src/server.js";

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
export const backendMain = path.join(repoRoot, "apps/backend/dist/main.js");
/** A real ACP agent that can `session/load` (kept in a JSON file named by RESUMABLE_AGENT_STORE). */
export const resumableAgent = path.join(repoRoot, "packages/agentctl/test/agents/resumable-agent.mjs");
const builtClis = [path.join(repoRoot, "packages/agentctl/dist/cli.js"), path.join(repoRoot, "packages/mock-agent/dist/cli.js")];

/** Integration tests run the built agentctl and mock agent; say how to build them if missing. */
export function requireBuilt(extra: string[] = []): void {
  for (const f of [...builtClis, ...extra]) {
    if (!fs.existsSync(f)) throw new Error(`${path.relative(repoRoot, f)} is missing: run \`npm run build\` at the repo root first`);
  }
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "kandev-"));
}

/** Starts the backend in this process on an ephemeral port with its own temp database. */
export async function startTestServer(
  overrides: Partial<ServerOptions> & { dir?: string } = {},
): Promise<RunningServer & { dir: string; dbPath: string }> {
  requireBuilt();
  const dir = overrides.dir ?? tempDir();
  const dbPath = overrides.dbPath ?? path.join(dir, "kandev.db");
  const server = await startServer({
    port: 0,
    serveWeb: false,
    logger: silentLogger,
    childEnv: { PATH: process.env.PATH ?? "" },
    ...overrides,
    dbPath,
  });
  return Object.assign(server, { dir, dbPath });
}

export interface JsonResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export async function api<T = unknown>(
  base: string,
  method: string,
  p: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { ...(body !== undefined && { "content-type": "application/json" }), ...headers },
    ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text.length > 0 ? JSON.parse(text) : undefined) as T, headers: res.headers };
}

/** Waits until `check` returns a value (not undefined), re-checking on an interval; bounded. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const getTask = async (base: string, id: string) => (await api<Task>(base, "GET", `/api/v1/tasks/${id}`)).body;
export const getSession = async (base: string, id: string) => (await api<Session>(base, "GET", `/api/v1/sessions/${id}`)).body;
export const getMessages = async (base: string, sessionId: string) =>
  (await api<Message[]>(base, "GET", `/api/v1/sessions/${sessionId}/messages`)).body;

export async function createTask(base: string, prompt: string, extra: Record<string, unknown> = {}): Promise<{ task: Task; session: Session }> {
  const res = await api<{ task: Task; session: Session }>(base, "POST", "/api/v1/tasks", { title: "t", prompt, ...extra });
  if (res.status !== 201) throw new Error(`create task failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function waitForTaskState(base: string, id: string, state: Task["state"], timeoutMs?: number): Promise<Task> {
  return eventually(
    async () => {
      const t = await getTask(base, id);
      return t.state === state ? t : undefined;
    },
    `task ${id} to reach ${state}`,
    timeoutMs,
  );
}

/** A browser-side /ws client that records every frame and can wait for one matching a predicate. */
export class WsClient {
  readonly frames: Envelope[] = [];
  /** Bytes of the frames' text received, all frames together (what a browser downloads, less framing). */
  receivedBytes = 0;
  private waiters: Array<() => void> = [];
  private nextId = 1;

  private constructor(readonly socket: WebSocket) {
    socket.on("message", (data) => {
      const text = data.toString();
      this.receivedBytes += Buffer.byteLength(text);
      this.frames.push(JSON.parse(text) as Envelope);
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static async connect(base: string, origin?: string): Promise<WsClient> {
    const socket = new WebSocket(`${base.replace(/^http/, "ws")}/ws`, origin !== undefined ? { origin } : {});
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
      socket.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    return new WsClient(socket);
  }

  /** Resolves with the first recorded frame matching `pred` (past or future); bounded. */
  waitFor(pred: (f: Envelope) => boolean, what: string, timeoutMs = 20_000): Promise<Envelope> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; got ${this.frames.map((f) => f.action).join(", ")}`)),
        timeoutMs,
      );
      const check = () => {
        const hit = this.frames.find(pred);
        if (hit !== undefined) {
          clearTimeout(timer);
          resolve(hit);
        } else this.waiters.push(check);
      };
      check();
    });
  }

  async request(action: string, payload: unknown): Promise<Envelope> {
    const id = `w-${this.nextId++}`;
    this.socket.send(JSON.stringify({ id, type: "request", action, payload }));
    return this.waitFor((f) => f.id === id, `answer to ${action}`);
  }

  close(): void {
    this.socket.terminate();
  }
}

/**
 * A script's copy of one streamed message, kept as docs/API.md tells /ws clients to: the content of
 * its `session.message.added` (or a later `session.message.updated`), each `session.message.appended`
 * laid on with applyAppended, and a REST refetch (`refetch`) whenever a delta does not fit. `skip`
 * drops deltas by their index among this message's, as a lossy link would.
 */
export async function followMessage(
  frames: readonly Envelope[],
  messageId: string,
  refetch: () => Promise<string>,
  skip: (delta: number) => boolean = () => false,
): Promise<{ content: string | null; deltas: number; refetches: number }> {
  let content: string | null = null;
  let deltas = 0;
  let refetches = 0;
  for (const f of frames) {
    if (f.action === "session.message.added" || f.action === "session.message.updated") {
      const m = (f.payload as { message: Message }).message;
      if (m.id === messageId) content = m.content;
      continue;
    }
    if (f.action !== "session.message.appended") continue;
    const d = f.payload as MessageAppended;
    if (d.message_id !== messageId || skip(deltas++)) continue;
    const next = content === null ? null : applyAppended(content, d.offset, d.text);
    if (next !== null) content = next;
    else {
      refetches++;
      content = await refetch();
    }
  }
  return { content, deltas, refetches };
}

/** Every live descendant of `pid` (Linux /proc), so tests can prove nothing outlives a shutdown. */
export function descendants(pid: number): number[] {
  const parentOf = parents();
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parentOf) if (parent === p) out.push(child), walk(child);
  };
  walk(pid);
  return out;
}

/** The agents running under the board's agentctl right now (its children; each leads its group). */
export function agentPids(server: { childPids(): number[] }): number[] {
  const parentOf = parents();
  const ctl = new Set(server.childPids());
  return [...parentOf].filter(([, parent]) => ctl.has(parent)).map(([child]) => child);
}

/** Waits for the agent a session just started: one under agentctl that was not in `before`. */
export function newAgentPid(server: { childPids(): number[] }, before: readonly number[]): Promise<number> {
  return eventually(() => agentPids(server).find((p) => !before.includes(p) && !isGoneOrZombie(p)), "the session's agent under agentctl");
}

function parents(): Map<number, number> {
  const parentOf = new Map<number, number>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parentOf.set(Number(name), Number(fields[1]));
    } catch {
      // The process exited while we looked.
    }
  }
  return parentOf;
}

/** True while a process with this pid exists (zombies included). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True when the pid is a zombie or gone (a zombie's code no longer runs). */
export function isGoneOrZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** The board as a real process (`node apps/backend/dist/main.js`). */
export interface BackendProcess {
  child: ChildProcess;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

const backends = new Set<ChildProcess>();

/** `node apps/backend/dist/main.js` with KANDEV_PORT=0; resolves with the URL it prints. */
export async function startBackendProcess(dbPath: string, extraEnv: Record<string, string> = {}): Promise<BackendProcess> {
  const child = spawn(process.execPath, [backendMain], {
    env: { PATH: process.env.PATH ?? "", KANDEV_PORT: "0", KANDEV_SERVE_WEB: "false", KANDEV_DB_PATH: dbPath, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  backends.add(child);
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      backends.delete(child);
      resolve({ code, signal });
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`backend did not print its URL. stderr: ${stderr}`)), 20_000);
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const m = /^Kandev board: (http:\/\/\S+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(({ code }) => reject(new Error(`backend exited (${code}) before listening. stderr: ${stderr}`)));
  });
  return { child, url, exited, stderr: () => stderr };
}

/** SIGKILLs every backend process a test started and did not stop (call from `after`). */
export function killBackendProcesses(): void {
  for (const c of backends) c.kill("SIGKILL");
}
