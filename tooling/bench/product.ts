// The product path: the real backend as a process (temp database, web serving off, elicitation on),
// a real agentctl and mock agent per session, and a scripted operator: one browser-side /ws client
// that answers every clarification over REST as soon as it is notified.
import fs from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import type { Message, Session, Task } from "@kandev/protocol";
import { benchNow } from "./clock.js";
import { ANSWER_TEXT } from "./floor.js";
import type { Pace } from "./plan.js";
import { JsonClient, describeReply, expectStatus } from "./http-json.js";
import { childrenOf, roleCpu, rssKb } from "./procfs.js";
import { mapLimit, startService, tail, type Service } from "./processes.js";
import { RunRecorder } from "./recorder.js";
import type { RoleCpu, RssKb } from "./report.js";
import { parseAsk, parseBenchError, parseDone, type DoneStamp } from "./wire.js";

/** One bench session: the task, its session, and what the operator is doing with it. */
interface BenchSession {
  index: number;
  taskId: string;
  sessionId: string;
  mode: "answer" | "hold";
  /** The bench turn's summary, once the agent said it. */
  done: DoneStamp | null;
  /** Turns that ended (the session went WAITING_FOR_INPUT with that current turn). */
  endedTurns: Set<string>;
  onTurnEnded: (() => void) | null;
}

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BACKEND_MAIN = path.join(REPO_ROOT, "apps/backend/dist/main.js");

/** As a file URL, so a path with spaces survives NODE_OPTIONS. */
const GC_HOOK = new URL("./gc-on-signal.mjs", import.meta.url).href;

/**
 * Starts `node apps/backend/dist/main.js` on a free port with a fresh database; resolves with its
 * URL. With `gcOnSignal` the backend, and through its environment every agentctl and agent, runs a
 * full garbage collection on SIGUSR2 (gc-on-signal.mjs), for the memory figures. `env` reaches the
 * backend and, through it, every agentctl and agent.
 */
export async function startBackend(
  dir: string,
  options: { serveWeb: boolean; name: string; gcOnSignal?: boolean; env?: Record<string, string> },
): Promise<{ service: Service; url: string; stderrFile: string }> {
  if (!fs.existsSync(BACKEND_MAIN)) throw new Error(`${path.relative(REPO_ROOT, BACKEND_MAIN)} is missing: run npm run build first`);
  const stderrFile = path.join(dir, `${options.name}.stderr.log`);
  const { service, ready } = await startService({
    command: process.execPath,
    args: [BACKEND_MAIN],
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      KANDEV_HOST: "127.0.0.1",
      KANDEV_PORT: "0",
      KANDEV_DB_PATH: path.join(dir, `${options.name}.db`),
      KANDEV_SERVE_WEB: options.serveWeb ? "true" : "false",
      KANDEV_FEATURES_ACP_ELICITATION: "true",
      NEXT_TELEMETRY_DISABLED: "1",
      ...(options.gcOnSignal === true && { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --expose-gc --import ${GC_HOOK}`.trim() }),
      ...options.env,
    },
    stderrFile,
    ready: (line) => /^Kandev board: (http:\/\/\S+)$/.exec(line)?.[1],
    timeoutMs: 60_000,
  });
  return { service, url: String(ready), stderrFile };
}

/** The operator's `/ws` client on the board at `url`, open (no compression, as browsers on loopback). */
export async function openBoardSocket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/ws`, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return ws;
}

export class ProductBench {
  private readonly sessions: BenchSession[] = [];
  private readonly bySessionId = new Map<string, BenchSession>();
  private readonly taskStates = new Map<string, string>();
  private readonly taskWaiters = new Set<() => void>();
  private recorder: RunRecorder | null = null;
  private pace: Pace | null = null;
  private held: string[] = [];
  private expectedHeld = 0;
  private heldWaiter: (() => void) | null = null;
  private nextRequestId = 1;
  private readonly requests = new Map<string, (frame: { type: string; payload: unknown }) => void>();

  private constructor(
    private readonly backend: Service,
    readonly url: string,
    private readonly stderrFile: string,
    private readonly ws: WebSocket,
    readonly http: JsonClient,
  ) {
    ws.on("message", (data) => this.onFrame(data.toString()));
  }

  /** Starts the backend and `sessions` sessions (agentctl + mock agent each), idle and subscribed. */
  static async start(sessions: number, dir: string): Promise<ProductBench> {
    const { service, url, stderrFile } = await startBackend(dir, { serveWeb: false, name: "product", gcOnSignal: true });
    try {
      const ws = await openBoardSocket(url);
      const bench = new ProductBench(service, url, stderrFile, ws, new JsonClient(url));
      await bench.subscribe({ board: true });
      // Six at a time: 2 processes start per session, and agentctl must print its port within 15 s.
      await mapLimit(
        Array.from({ length: sessions }, (_, i) => i),
        6,
        (i) => bench.addSession(i),
      );
      return bench;
    } catch (err) {
      await service.stop();
      throw new Error(`${err instanceof Error ? err.message : String(err)}\nbackend stderr: ${tail(stderrFile)}`);
    }
  }

  /** RSS of the backend and of all its agentctl children, in kB. */
  rss(): RssKb {
    const kids = childrenOf(this.backend.pid);
    return { backend: rssKb(this.backend.pid), agentctl: kids.reduce((a, p) => a + rssKb(p), 0) };
  }

  /** CPU used so far by the backend, its agentctls, their agents and the benchmark (see roleCpu). */
  cpu(): RoleCpu {
    return roleCpu(this.backend.pid, childrenOf(this.backend.pid));
  }

  /** Asks the backend, every agentctl and every agent for a full garbage collection (see startBackend). */
  collectGarbage(): void {
    const agentctls = childrenOf(this.backend.pid);
    for (const pid of [this.backend.pid, ...agentctls, ...agentctls.flatMap((p) => childrenOf(p))]) {
      try {
        process.kill(pid, "SIGUSR2");
      } catch {
        // gone meanwhile
      }
    }
  }

  agentctlCount(): number {
    return childrenOf(this.backend.pid).length;
  }

  /**
   * Sessions 0..n-1 each run one bench turn of `roundTrips` serial questions; the operator answers
   * each at once, or paced (plan.ts).
   */
  async run(n: number, roundTrips: number, pace: Pace | null = null): Promise<RunRecorder> {
    const recorder = new RunRecorder();
    this.recorder = recorder;
    this.pace = pace;
    try {
      await Promise.all(
        this.sessions.slice(0, n).map(async (s, i) => {
          if (pace !== null) await delay(i * pace.startGapMs);
          await this.playTurn(s, `/e2e:bench-elicit ${roundTrips}`, "answer");
        }),
      );
      for (const s of this.sessions.slice(0, n)) {
        if (s.done?.accepted !== roundTrips) recorder.onError(`session ${s.index}: ${s.done?.accepted ?? 0} of ${roundTrips} answers accepted`);
      }
    } finally {
      this.recorder = null;
    }
    return recorder;
  }

  /**
   * Spreads `total` elicitations over every session as bursts and resolves once all are pending
   * at the operator, unanswered; `release()` then answers them all and resolves once every turn ended.
   */
  async hold(total: number): Promise<{ pendingRecords: number; release: () => Promise<{ leftPendingRecords: number; unansweredAtAgent: number }> }> {
    const n = this.sessions.length;
    const share = (i: number) => Math.floor(total / n) + (i < total % n ? 1 : 0);
    this.held = [];
    this.expectedHeld = total;
    const allHeld = new Promise<void>((resolve) => (this.heldWaiter = resolve));
    const turns = this.sessions.filter((s) => share(s.index) > 0).map((s) => this.playTurn(s, `/e2e:bench-elicit ${share(s.index)} burst`, "hold"));
    await withTimeout(allHeld, 120_000, () => `only ${this.held.length} of ${total} elicitations reached the operator`);
    const pendingRecords = await this.pendingRecordCount();
    const release = async () => {
      const ids = this.held;
      this.held = [];
      await mapLimit(ids, 32, async (id) => {
        const r = await this.http.postText(`/api/v1/clarifications/${id}/respond`, ANSWER_TEXT);
        expectStatus(r, 200, `answer ${id}`);
      });
      await Promise.all(turns);
      const unansweredAtAgent = this.sessions.reduce((acc, s) => acc + (share(s.index) - (s.done?.accepted ?? 0)), 0);
      return { leftPendingRecords: await this.pendingRecordCount(), unansweredAtAgent };
    };
    return { pendingRecords, release };
  }

  async close(): Promise<void> {
    this.ws.terminate();
    this.http.close();
    await this.backend.stop(15_000);
  }

  stderrTail(): string {
    return tail(this.stderrFile);
  }

  private async pendingRecordCount(): Promise<number> {
    const r = await this.http.get<unknown[]>("/api/v1/clarifications?status=pending");
    return expectStatus(r, 200, "list pending clarifications").length;
  }

  private async addSession(index: number): Promise<void> {
    const created = expectStatus(
      await this.http.post<{ task: Task; session: Session }>("/api/v1/tasks", { title: `bench ${index}`, prompt: "/e2e:plain" }),
      201,
      "create task",
    );
    const s: BenchSession = {
      index,
      taskId: created.task.id,
      sessionId: created.session.id,
      mode: "answer",
      done: null,
      endedTurns: new Set(),
      onTurnEnded: null,
    };
    this.sessions[index] = s;
    this.bySessionId.set(s.sessionId, s);
    await this.subscribe({ task_id: s.taskId });
    // The first turn (/e2e:plain) ends with the task in REVIEW; only then can a bench turn start.
    await this.waitTask(s.taskId, (state) => state === "REVIEW" || state === "FAILED", 60_000);
    if (this.taskStates.get(s.taskId) === "FAILED") throw new Error(`session ${index} failed to start`);
  }

  /** Sends one prompt and resolves once that turn ended. */
  private async playTurn(s: BenchSession, text: string, mode: BenchSession["mode"]): Promise<void> {
    s.mode = mode;
    s.done = null;
    const r = await this.http.post<{ turn_id: string }>(`/api/v1/sessions/${s.sessionId}/prompt`, { text });
    const { turn_id } = expectStatus(r, 202, `prompt session ${s.index}`);
    const ended = new Promise<void>((resolve) => {
      s.onTurnEnded = () => s.endedTurns.has(turn_id) && resolve();
      s.onTurnEnded();
    });
    await withTimeout(ended, 600_000, () => `session ${s.index}: turn ${turn_id} did not end`);
    s.onTurnEnded = null;
  }

  private subscribe(payload: Record<string, unknown>): Promise<void> {
    const id = `bench-${this.nextRequestId++}`;
    return new Promise((resolve, reject) => {
      this.requests.set(id, (frame) =>
        frame.type === "response" ? resolve() : reject(new Error(`subscribe failed: ${JSON.stringify(frame.payload)}`)),
      );
      this.ws.send(JSON.stringify({ id, type: "request", action: "subscribe", payload }));
    });
  }

  private waitTask(taskId: string, pred: (state: string) => boolean, timeoutMs: number): Promise<void> {
    return withTimeout(
      new Promise<void>((resolve) => {
        const check = () => {
          const state = this.taskStates.get(taskId);
          if (state !== undefined && pred(state)) {
            this.taskWaiters.delete(check);
            resolve();
          }
        };
        this.taskWaiters.add(check);
        check();
      }),
      timeoutMs,
      () => `task ${taskId} stayed ${this.taskStates.get(taskId)}`,
    );
  }

  private onFrame(text: string): void {
    const receivedAt = benchNow();
    const frame = JSON.parse(text) as { id?: string; type: string; action: string; payload: Record<string, unknown> };
    if (frame.type !== "notification") {
      if (frame.id !== undefined) this.requests.get(frame.id)?.(frame);
      if (frame.id !== undefined) this.requests.delete(frame.id);
      return;
    }
    switch (frame.action) {
      case "session.message.added":
        this.onMessage(frame.payload.message as Message, receivedAt);
        return;
      case "session.updated": {
        const session = frame.payload.session as Session;
        const s = this.bySessionId.get(session.id);
        if (s !== undefined && session.state === "WAITING_FOR_INPUT" && session.current_turn_id !== null) {
          s.endedTurns.add(session.current_turn_id);
          s.onTurnEnded?.();
        }
        return;
      }
      case "task.updated": {
        const task = frame.payload.task as Task;
        this.taskStates.set(task.id, task.state);
        for (const w of [...this.taskWaiters]) w();
        return;
      }
      default:
        return;
    }
  }

  private onMessage(message: Message, receivedAt: number): void {
    const s = this.bySessionId.get(message.session_id);
    if (s === undefined || message.author_type !== "agent") return;
    if (message.type === "text") {
      const done = parseDone(message.content);
      if (done !== null) {
        s.done = done;
        this.recorder?.onDone(s.index, done.count, done.lastReceivedAt);
        return;
      }
      const error = parseBenchError(message.content);
      if (error !== null) this.recorder?.onError(`session ${s.index}: ${error.message}`);
      return;
    }
    if (message.type !== "clarification_request" || message.metadata.status !== "pending") return;
    const stamp = parseAsk(message.content);
    const pendingId = message.metadata.pending_id;
    if (stamp === null || typeof pendingId !== "string") return;
    if (s.mode === "hold") {
      this.held.push(pendingId);
      if (this.heldWaiter !== null && this.held.length >= this.expectedHeld) this.heldWaiter();
      return;
    }
    const rec = this.recorder;
    if (rec === null) return;
    rec.onAsk(s.index, stamp.seq, stamp.sentAt, stamp.prevReceivedAt, receivedAt);
    const answer = () => {
      rec.onAnswerStart(s.index, stamp.seq, benchNow());
      this.http.postText(`/api/v1/clarifications/${pendingId}/respond`, ANSWER_TEXT).then(
        (r) => r.status !== 200 && rec.onError(`answer ${pendingId}: ${describeReply(r, 300)}`),
        (err: unknown) => rec.onError(`answer ${pendingId}: ${String(err)}`),
      );
    };
    if (this.pace !== null) setTimeout(answer, this.pace.thinkMs());
    else answer();
  }
}

/** Rejects with `what()` if `p` does not settle within `ms`. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what()}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
