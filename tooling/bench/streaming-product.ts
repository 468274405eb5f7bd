// The streaming pass on the product: the real backend (temporary database), its agentctl and one
// mock agent per session, and one browser-side /ws client subscribed to the board and every task.
// Each case prompts `/e2e:flood <chunks> <size>` in N sessions at once and measures, around it,
// what the client received, what the backend and agentctl wrote to disk and the CPU of each role.
import fs from "node:fs";
import path from "node:path";
import type WebSocket from "ws";
import { parseFloodStamps } from "@kandev/mock-agent";
import type { Message, MessageAppended, Session, Task } from "@kandev/protocol";
import { benchNow } from "./clock.js";
import { JsonClient, expectStatus } from "./http-json.js";
import { childrenOf, roleCpu, writeBytes } from "./procfs.js";
import { mapLimit, tail, type Service } from "./processes.js";
import { openBoardSocket, startBackend } from "./product.js";
import { floodText } from "./reply-rebuild.js";
import { CaseTally } from "./stream-tally.js";
import { sideOver, type Readings, type StreamSide } from "./streaming-report.js";

interface Frame {
  id?: string;
  type: string;
  action: string;
  payload: Record<string, unknown>;
}

export class StreamingProduct {
  private tally: CaseTally | null = null;
  private readonly sessionIds: string[] = [];
  private readonly acpIds = new Map<string, string>();
  private readonly endedTurns = new Map<string, Set<string>>();
  private readonly turnOf = new Map<string, string>();
  private readonly waiters = new Set<() => void>();
  private readonly requests = new Map<string, (frame: Frame) => void>();
  private nextId = 1;

  private constructor(
    private readonly backend: Service,
    stderrFile: string,
    private readonly stampsFile: string,
    private readonly ws: WebSocket,
    private readonly http: JsonClient,
  ) {
    ws.on("message", (data: Buffer) => this.onFrame(data));
    ws.on("close", () => this.tally?.fail(new Error(`the board closed the /ws client; backend stderr: ${tail(stderrFile)}`)));
  }

  /** Starts the backend and `sessions` idle sessions (each has played one `/e2e:plain` turn). */
  static async start(sessions: number, dir: string): Promise<StreamingProduct> {
    const stampsFile = path.join(dir, "flood-stamps.log");
    const { service, url, stderrFile } = await startBackend(dir, { serveWeb: false, name: "streaming", env: { MOCK_AGENT_FLOOD_LOG: stampsFile } });
    try {
      const ws = await openBoardSocket(url);
      const bench = new StreamingProduct(service, stderrFile, stampsFile, ws, new JsonClient(url));
      await bench.request({ board: true });
      await mapLimit(
        Array.from({ length: sessions }, (_, i) => i),
        4,
        (i) => bench.addSession(i),
      );
      return bench;
    } catch (err) {
      await service.stop();
      throw new Error(`${err instanceof Error ? err.message : String(err)}\nbackend stderr: ${tail(stderrFile)}`);
    }
  }

  /** CPU per role (backend, its agentctl, their agents, this process) and the backend's and agentctl's write_bytes. */
  read(): Readings {
    const agentctls = childrenOf(this.backend.pid);
    return {
      cpu: roleCpu(this.backend.pid, agentctls),
      disk: { backend: writeBytes(this.backend.pid), agentctl: agentctls.reduce((a, p) => a + writeBytes(p), 0) },
    };
  }

  /** Sessions 0..n-1 each stream `/e2e:flood <chunks> <size>` at once; resolves with what it cost. */
  async run(n: number, chunks: number, size: number): Promise<StreamSide> {
    const ids = this.sessionIds.slice(0, n);
    fs.writeFileSync(this.stampsFile, "");
    const tally = new CaseTally(ids, floodText(chunks, size));
    const before = this.read();
    const started = benchNow();
    this.tally = tally;
    try {
      await Promise.all(
        ids.map(async (id) => {
          const r = await this.http.post<{ turn_id: string }>(`/api/v1/sessions/${id}/prompt`, { text: `/e2e:flood ${chunks} ${size}` });
          const turn = expectStatus(r, 202, `prompt session ${id}`).turn_id;
          this.turnOf.set(id, turn);
          if (this.endedTurns.get(id)?.has(turn)) tally.ended(id);
        }),
      );
      await tally.settled(600_000);
      const wallMs = benchNow() - started;
      // Frames that follow a turn's end (the task's state, the notification) belong to the case.
      await new Promise((r) => setTimeout(r, 250));
      const after = this.read();
      for (const stamp of parseFloodStamps(fs.readFileSync(this.stampsFile, "utf8"))) {
        const id = ids.find((s) => this.acpIds.get(s) === stamp.session_id);
        if (id !== undefined && stamp.chunks === chunks) tally.lastChunk(id, stamp.last_chunk_at);
      }
      return sideOver({ wsBytes: tally.wsBytes, frames: tally.frames, lastFrameMs: tally.verify() }, before, after, wallMs);
    } finally {
      this.tally = null;
      for (const id of ids) this.turnOf.delete(id);
    }
  }

  async close(): Promise<void> {
    this.ws.terminate();
    this.http.close();
    await this.backend.stop(15_000);
  }

  private async addSession(index: number): Promise<void> {
    const r = await this.http.post<{ task: Task; session: Session }>("/api/v1/tasks", { title: `streaming ${index}`, prompt: "/e2e:plain" });
    const { task, session } = expectStatus(r, 201, "create task");
    this.sessionIds[index] = session.id;
    await this.request({ task_id: task.id });
    // The first turn must end before a flood can be prompted; its session then has its ACP id.
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        const s = this.lastSession.get(session.id);
        if (s?.state === "FAILED") reject(new Error(`session ${index} failed to start: ${s.error ?? ""}`));
        else if (s?.state === "WAITING_FOR_INPUT" && this.acpIds.has(session.id)) resolve();
        else return;
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  private readonly lastSession = new Map<string, Session>();

  private request(payload: Record<string, unknown>): Promise<void> {
    const id = `streaming-${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.requests.set(id, (frame) =>
        frame.type === "response" ? resolve() : reject(new Error(`subscribe failed: ${JSON.stringify(frame.payload)}`)),
      );
      this.ws.send(JSON.stringify({ id, type: "request", action: "subscribe", payload }));
    });
  }

  private onFrame(data: Buffer): void {
    const receivedAt = benchNow();
    const tally = this.tally;
    tally?.frame(data.length);
    const frame = JSON.parse(data.toString()) as Frame;
    if (frame.type !== "notification") {
      if (frame.id !== undefined) this.requests.get(frame.id)?.(frame);
      if (frame.id !== undefined) this.requests.delete(frame.id);
      return;
    }
    switch (frame.action) {
      case "session.message.added":
      case "session.message.updated": {
        const m = frame.payload.message as Message;
        const rebuild = tally?.rebuild(m.session_id);
        if (rebuild === undefined || m.author_type !== "agent" || m.type !== "text") return;
        if (frame.action === "session.message.added") rebuild.added(m.id, m.content);
        else rebuild.updated(m.id, m.content);
        tally!.fed(m.session_id, receivedAt);
        return;
      }
      case "session.message.appended": {
        const a = frame.payload as unknown as MessageAppended;
        tally?.rebuild(a.session_id)?.appended(a.message_id, a.offset, a.text);
        tally?.fed(a.session_id, receivedAt);
        return;
      }
      case "session.updated":
        this.onSession(frame.payload.session as Session);
        return;
      default:
        return;
    }
  }

  private onSession(s: Session): void {
    this.lastSession.set(s.id, s);
    if (s.acp_session_id !== null) this.acpIds.set(s.id, s.acp_session_id);
    if (s.state === "FAILED") this.tally?.fail(new Error(`session ${s.id} failed: ${s.error ?? ""}`));
    if (s.state === "WAITING_FOR_INPUT" && s.current_turn_id !== null) {
      const ended = this.endedTurns.get(s.id) ?? new Set<string>();
      this.endedTurns.set(s.id, ended);
      ended.add(s.current_turn_id);
      if (this.turnOf.get(s.id) === s.current_turn_id) this.tally?.ended(s.id);
    }
    for (const w of [...this.waiters]) w();
  }
}
