// The floor: the same hops as the product (agent stdio pipe -> agentctl WebSocket -> backend ->
// browser WebSocket; HTTP POST -> backend -> agentctl WebSocket -> agent stdin) through relays
// that do no work (tooling/bench/floor/*.mjs), driven by the same operator logic.
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { benchNow } from "./clock.js";
import type { Pace } from "./plan.js";
import { JsonClient } from "./http-json.js";
import { roleCpu } from "./procfs.js";
import type { RoleCpu } from "./report.js";
import { listeningPort, mapLimit, startService, type Service } from "./processes.js";
import { RunRecorder } from "./recorder.js";
import { parseFloorLine } from "./wire.js";

const FLOOR_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "floor");

/**
 * Which relays run the sessions: the floor's, which do no work, or the lean board's (`--lean`),
 * which do the least any board must on a question (floor/lean-*.mjs). Both speak the same wire
 * to the operator, so one operator drives either.
 */
export type RelayKind = "floor" | "lean";
const RELAYS: Record<RelayKind, { agentctl: string; backend: string }> = {
  floor: { agentctl: "relay-agentctl.mjs", backend: "relay-backend.mjs" },
  lean: { agentctl: "lean-agentctl.mjs", backend: "lean-backend.mjs" },
};
/** The same answer body the product's operator sends, so both carry the same bytes. */
export const ANSWER_TEXT = JSON.stringify({ answers: [{ question_id: "choice", selected_options: ["a"] }] });

export class FloorBench {
  private recorder: RunRecorder | null = null;
  private pace: Pace | null = null;
  private readonly waiting = new Map<number, () => void>();
  /** Set once the relay backend's WebSocket is gone: every run from then on fails with it. */
  private lost: Error | null = null;
  private failRun: ((err: Error) => void) | null = null;
  private closing = false;

  private constructor(
    private readonly agentctls: Service[],
    private readonly backend: Service,
    private readonly ws: WebSocket,
    private readonly http: JsonClient,
    private readonly name: string,
    private readonly stderrFile: string,
  ) {
    ws.on("message", (data) => this.onFrame(data.toString()));
    // A relay that dies (a relay agentctl or the lean board's database failing) must end the run
    // with a reason, not leave it waiting for answers that will never come.
    ws.on("close", () => {
      if (this.closing) return;
      this.lost = new Error(`the ${name}'s relay backend closed its WebSocket (it stopped?); see ${stderrFile}`);
      this.failRun?.(this.lost);
    });
  }

  /** Starts `sessions` relay agentctls (each with its relay agent) and the relay backend. */
  static async start(sessions: number, logDir: string, kind: RelayKind = "floor"): Promise<FloorBench> {
    const stderrFile = path.join(logDir, `${kind}.stderr.log`);
    const relays = RELAYS[kind];
    const started: Service[] = [];
    try {
      const ports = await mapLimit(
        Array.from({ length: sessions }, (_, i) => i),
        8,
        async (i) => {
          const { service, ready } = await startService({
            command: process.execPath,
            args: [path.join(FLOOR_DIR, relays.agentctl), String(i)],
            stderrFile,
            ready: listeningPort,
          });
          started.push(service);
          return ready as number;
        },
      );
      const { service: backend, ready } = await startService({
        command: process.execPath,
        args: [path.join(FLOOR_DIR, relays.backend), JSON.stringify(ports), logDir],
        stderrFile,
        ready: listeningPort,
      });
      started.push(backend);
      const base = `http://127.0.0.1:${ready}`;
      const ws = new WebSocket(`ws://127.0.0.1:${ready}/ws`, { perMessageDeflate: false });
      await new Promise<void>((resolve, reject) => {
        ws.once("open", () => resolve());
        ws.once("error", reject);
      });
      return new FloorBench(started.slice(0, -1), backend, ws, new JsonClient(base), kind === "lean" ? "lean board" : "floor", stderrFile);
    } catch (err) {
      await Promise.all(started.map((s) => s.stop(1000)));
      throw err;
    }
  }

  /**
   * `sessions` relay sessions each do `roundTrips` serial round trips at once; the operator answers
   * each question at once, or paced (plan.ts).
   */
  async run(sessions: number, roundTrips: number, pace: Pace | null = null): Promise<RunRecorder> {
    if (sessions > this.agentctls.length) throw new Error(`floor started with ${this.agentctls.length} sessions, asked for ${sessions}`);
    if (this.lost !== null) throw this.lost;
    const recorder = new RunRecorder();
    this.recorder = recorder;
    this.pace = pace;
    const failed = new Promise<never>((_, reject) => (this.failRun = reject));
    try {
      await Promise.race([
        failed,
        Promise.all(
          Array.from({ length: sessions }, async (_, s) => {
            const done = new Promise<void>((resolve) => this.waiting.set(s, resolve));
            if (pace !== null) await delay(s * pace.startGapMs);
            const r = await this.http.postText(`/r/${s}`, JSON.stringify({ start: roundTrips })).catch((err: unknown) => {
              // It may have died just now: its WebSocket's close can come after this error.
              throw (
                this.lost ??
                new Error(
                  `the ${this.name}'s relay backend did not answer (${err instanceof Error ? err.message : String(err)}; it stopped?); see ${this.stderrFile}`,
                )
              );
            });
            if (r.status !== 200) throw new Error(`the ${this.name} would not start session ${s}: HTTP ${r.status}; see ${this.stderrFile}`);
            await done;
          }),
        ),
      ]);
    } finally {
      this.failRun = null;
      this.recorder = null;
    }
    return recorder;
  }

  /** CPU used so far by the relays and the benchmark (see roleCpu). */
  cpu(): RoleCpu {
    return roleCpu(
      this.backend.pid,
      this.agentctls.map((s) => s.pid),
    );
  }

  async close(): Promise<void> {
    this.closing = true;
    this.ws.terminate();
    this.http.close();
    await this.backend.stop(2000);
    await Promise.all(this.agentctls.map((s) => s.stop(2000)));
  }

  private onFrame(text: string): void {
    const receivedAt = benchNow();
    const rec = this.recorder;
    if (rec === null) return;
    const line = parseFloorLine(text);
    if (line.kind === "done") {
      rec.onDone(line.session, line.count, line.lastReceivedAt);
      this.waiting.get(line.session)?.();
      return;
    }
    rec.onAsk(line.session, line.seq, line.sentAt, line.prevReceivedAt, receivedAt);
    const answer = () => {
      rec.onAnswerStart(line.session, line.seq, benchNow());
      this.http.postText(`/r/${line.session}`, ANSWER_TEXT).then(
        (r) => r.status !== 200 && rec.onError(`floor answer: HTTP ${r.status}`),
        (err: unknown) => rec.onError(`floor answer: ${String(err)}`),
      );
    };
    if (this.pace !== null) setTimeout(answer, this.pace.thinkMs());
    else answer();
  }
}
