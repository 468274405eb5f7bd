// The streaming pass's floor: the product's hops (agent stdout pipe -> agentctl WebSocket ->
// backend -> the browser's /ws) through relays that do no work (floor/relay-agentctl.mjs with
// floor/flood-agent.mjs, floor/relay-backend.mjs): every agent line goes on as one frame, as it
// came, with no parsing, storing, batching or re-encoding. The same client checks the same text.
import path from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { benchNow } from "./clock.js";
import { JsonClient } from "./http-json.js";
import { listeningPort, mapLimit, startService, type Service } from "./processes.js";
import { roleCpu, writeBytes } from "./procfs.js";
import { floodText } from "./reply-rebuild.js";
import { CaseTally } from "./stream-tally.js";
import { sideOver, type Readings, type StreamSide } from "./streaming-report.js";
import { parseFloodLine } from "./wire.js";

const FLOOR_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "floor");

export class StreamingFloor {
  private tally: CaseTally | null = null;

  private constructor(
    private readonly agentctls: Service[],
    private readonly backend: Service,
    private readonly ws: WebSocket,
    private readonly http: JsonClient,
    private readonly stderrFile: string,
  ) {
    ws.on("message", (data: Buffer) => this.onFrame(data));
    ws.on("close", () => this.tally?.fail(new Error(`the streaming floor's relay backend closed its WebSocket; see ${stderrFile}`)));
  }

  /** Starts `sessions` relay agentctls (each with a flood agent) and the relay backend. */
  static async start(sessions: number, dir: string): Promise<StreamingFloor> {
    const stderrFile = path.join(dir, "streaming-floor.stderr.log");
    const started: Service[] = [];
    try {
      const ports = await mapLimit(
        Array.from({ length: sessions }, (_, i) => i),
        4,
        async (i) => {
          const { service, ready } = await startService({
            command: process.execPath,
            args: [path.join(FLOOR_DIR, "relay-agentctl.mjs"), String(i), "flood-agent.mjs"],
            stderrFile,
            ready: listeningPort,
          });
          started.push(service);
          return ready as number;
        },
      );
      const { service: backend, ready } = await startService({
        command: process.execPath,
        args: [path.join(FLOOR_DIR, "relay-backend.mjs"), JSON.stringify(ports)],
        stderrFile,
        ready: listeningPort,
      });
      const ws = new WebSocket(`ws://127.0.0.1:${ready}/ws`, { perMessageDeflate: false });
      await new Promise<void>((resolve, reject) => {
        ws.once("open", () => resolve());
        ws.once("error", reject);
      });
      return new StreamingFloor(started, backend, ws, new JsonClient(`http://127.0.0.1:${ready}`), stderrFile);
    } catch (err) {
      await Promise.all(started.map((s) => s.stop(1000)));
      throw err;
    }
  }

  read(): Readings {
    const pids = this.agentctls.map((s) => s.pid);
    return {
      cpu: roleCpu(this.backend.pid, pids),
      disk: { backend: writeBytes(this.backend.pid), agentctl: pids.reduce((a, p) => a + writeBytes(p), 0) },
    };
  }

  /** Relay sessions 0..n-1 each stream `chunks` chunks of `size` at once. */
  async run(n: number, chunks: number, size: number): Promise<StreamSide> {
    const keys = Array.from({ length: n }, (_, i) => String(i));
    const tally = new CaseTally(keys, floodText(chunks, size));
    const before = this.read();
    const started = benchNow();
    this.tally = tally;
    try {
      await Promise.all(
        keys.map(async (k) => {
          const r = await this.http.postText(`/r/${k}`, JSON.stringify({ flood: chunks, size }));
          if (r.status !== 200) throw new Error(`the streaming floor would not start session ${k}: HTTP ${r.status}; see ${this.stderrFile}`);
        }),
      );
      await tally.settled(600_000);
      const wallMs = benchNow() - started;
      const after = this.read();
      return sideOver({ wsBytes: tally.wsBytes, frames: tally.frames, lastFrameMs: tally.verify() }, before, after, wallMs);
    } finally {
      this.tally = null;
    }
  }

  async close(): Promise<void> {
    this.ws.terminate();
    this.http.close();
    await this.backend.stop(2000);
    await Promise.all(this.agentctls.map((s) => s.stop(2000)));
  }

  private onFrame(data: Buffer): void {
    const receivedAt = benchNow();
    const tally = this.tally;
    if (tally === null) return;
    tally.frame(data.length);
    const line = parseFloodLine(data.toString());
    const key = String(line.session);
    if (line.kind === "done") {
      tally.lastChunk(key, line.lastChunkAt);
      tally.ended(key);
      return;
    }
    // The floor has no offsets: its frames are appended in the order they came, and the final
    // comparison with the expected text (each chunk names its number) catches a loss or a swap.
    const rebuild = tally.rebuild(key);
    if (rebuild === undefined) return;
    if (rebuild.chars === 0) rebuild.added(key, line.text);
    else rebuild.appended(key, rebuild.chars, line.text);
    tally.fed(key, receivedAt);
  }
}
