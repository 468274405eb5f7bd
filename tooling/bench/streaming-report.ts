// The streaming pass's result model, its figures and targets (issue 35 item 4), the printed tables
// and the --json object. Pure.
import { markdownTable, type RoleCpu, type TargetCheck } from "./report.js";
import { round } from "./stats.js";

/** What one side (the product or the floor) cost while every session of a case streamed its reply. */
export interface StreamSide {
  /** Payload bytes of every /ws frame the one browser-side client received (frame headers not counted). */
  wsBytes: number;
  frames: number;
  /** /proc/<pid>/io write_bytes over the case: the backend's, and its agentctl's (procfs.ts parseWriteBytes). */
  diskBytes: { backend: number; agentctl: number };
  /** CPU ms over the case, per role (all sessions' processes of a role summed). */
  cpu: RoleCpu;
  /**
   * Per session: when the client received the frame that completed the reply, minus when the agent
   * wrote its last chunk (both benchNow: comparable across processes), in ms.
   */
  lastFrameMs: number[];
  /** The first prompt sent -> every reply complete and every turn ended, in ms. */
  wallMs: number;
}

/** Readings taken around a case: CPU per role and write_bytes of the backend and its agentctl. */
export interface Readings {
  cpu: RoleCpu;
  disk: { backend: number; agentctl: number };
}

/** What a side cost over a case: what its client received, and the readings before and after. */
export function sideOver(
  received: Pick<StreamSide, "wsBytes" | "frames" | "lastFrameMs">,
  before: Readings,
  after: Readings,
  wallMs: number,
): StreamSide {
  return {
    ...received,
    diskBytes: { backend: after.disk.backend - before.disk.backend, agentctl: after.disk.agentctl - before.disk.agentctl },
    cpu: {
      backend: after.cpu.backend - before.cpu.backend,
      agentctl: after.cpu.agentctl - before.cpu.agentctl,
      agent: after.cpu.agent - before.cpu.agent,
      operator: after.cpu.operator - before.cpu.operator,
    },
    wallMs,
  };
}

/** One case: `sessions` sessions at once, each streaming `chunks` chunks of `size` characters. */
export interface StreamCase {
  sessions: number;
  chunks: number;
  size: number;
  product: StreamSide;
  floor: StreamSide;
}

/** A task page holding a long transcript, opened in Chromium (transcript-page.ts). */
export interface TranscriptPageResult {
  messages: number;
  /** Navigation start -> the newest message on screen, first load (server and browser cold). */
  coldMs: number;
  /** The same on each later load. */
  warmMs: number[];
  /** Per key typed into the prompt box: keydown -> the next frame after the box changed. */
  keyMs: number[];
  /** The longest task the page ran (PerformanceObserver "longtask") over the warm loads and the typing. */
  longTaskMaxMs: number;
}

export interface StreamingResult {
  cases: StreamCase[];
  transcript: TranscriptPageResult | { error: string } | null;
}

/** The targets (2 cores): bytes per byte of agent text, linearity, the last frame's delay, the page. */
export const MAX_WS_BYTES_PER_BYTE = 3;
export const MAX_DISK_BYTES_PER_BYTE = 20;
export const MAX_COST_GROWTH_X = 1.5;
export const MAX_LAST_FRAME_MS = 250;
export const MAX_TRANSCRIPT_OPEN_MS = 1000;
export const MAX_KEY_ECHO_MS = 100;

/** The figures of one side of a case. */
export interface StreamFigures {
  textBytes: number;
  wsPerByte: number;
  diskPerByte: number;
  /** CPU ms per chunk (all sessions' chunks), per role. */
  cpuPerChunk: RoleCpu;
  /** The product's cost: backend + agentctl + agent CPU (not the bench's own), in microseconds per byte of text. */
  costUsPerByte: number;
  /** The worst session's last-frame delay, in ms. */
  lastFrameMs: number;
}

export function streamFigures(c: Pick<StreamCase, "sessions" | "chunks" | "size">, side: StreamSide): StreamFigures {
  const textBytes = c.sessions * c.chunks * c.size;
  const chunks = c.sessions * c.chunks;
  const per = (n: number, d: number) => (d > 0 ? n / d : Number.NaN);
  return {
    textBytes,
    wsPerByte: per(side.wsBytes, textBytes),
    diskPerByte: per(side.diskBytes.backend + side.diskBytes.agentctl, textBytes),
    cpuPerChunk: {
      backend: per(side.cpu.backend, chunks),
      agentctl: per(side.cpu.agentctl, chunks),
      agent: per(side.cpu.agent, chunks),
      operator: per(side.cpu.operator, chunks),
    },
    costUsPerByte: per(1000 * (side.cpu.backend + side.cpu.agentctl + side.cpu.agent), textBytes),
    lastFrameMs: side.lastFrameMs.length === 0 ? Number.NaN : Math.max(...side.lastFrameMs),
  };
}

const label = (c: Pick<StreamCase, "sessions" | "chunks">) => `${c.sessions} x ${c.chunks.toLocaleString("en-US")}`;
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));

/** Judges the product against the targets; NaN (nothing measured) never passes. */
export function checkStreamingTargets(result: StreamingResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const c of result.cases) {
    const f = streamFigures(c, c.product);
    checks.push({
      target: `/ws bytes <= ${MAX_WS_BYTES_PER_BYTE} per byte of text, ${label(c)} chunks`,
      measured: `${fmt(f.wsPerByte)} (floor ${fmt(streamFigures(c, c.floor).wsPerByte)})`,
      ok: f.wsPerByte <= MAX_WS_BYTES_PER_BYTE,
    });
    checks.push({
      target: `disk bytes <= ${MAX_DISK_BYTES_PER_BYTE} per byte of text, ${label(c)} chunks`,
      measured: fmt(f.diskPerByte, 1),
      ok: f.diskPerByte <= MAX_DISK_BYTES_PER_BYTE,
    });
  }
  for (const sessions of [...new Set(result.cases.map((c) => c.sessions))]) {
    const same = result.cases.filter((c) => c.sessions === sessions).sort((a, b) => a.chunks - b.chunks);
    const short = same[0];
    const long = same.at(-1);
    if (short === undefined || long === undefined || short.chunks === long.chunks) continue;
    const x = streamFigures(long, long.product).costUsPerByte / streamFigures(short, short.product).costUsPerByte;
    checks.push({
      target: `CPU per byte of a ${label(long)} reply <= ${MAX_COST_GROWTH_X}x a ${label(short)} one`,
      measured: `${fmt(x)}x (${fmt(streamFigures(long, long.product).costUsPerByte)} vs ${fmt(streamFigures(short, short.product).costUsPerByte)} us/B)`,
      ok: x <= MAX_COST_GROWTH_X,
    });
  }
  const most = Math.max(...result.cases.map((c) => c.sessions));
  for (const c of result.cases.filter((k) => k.sessions === most && most > 1)) {
    const f = streamFigures(c, c.product);
    checks.push({
      target: `last frame <= ${MAX_LAST_FRAME_MS} ms after the agent's last chunk, ${label(c)} chunks (worst session)`,
      measured: `${fmt(f.lastFrameMs, 1)} ms (floor ${fmt(streamFigures(c, c.floor).lastFrameMs, 1)} ms)`,
      ok: f.lastFrameMs <= MAX_LAST_FRAME_MS,
    });
  }
  const t = result.transcript;
  if (t !== null && "error" in t) checks.push({ target: "a task page of a long transcript", measured: `not measured: ${t.error}`, ok: false });
  else if (t !== null) {
    const worst = t.warmMs.length === 0 ? Number.NaN : Math.max(...t.warmMs);
    checks.push({
      target: `a task page of ${t.messages.toLocaleString("en-US")} messages shows its newest < ${MAX_TRANSCRIPT_OPEN_MS} ms (every warm load)`,
      measured: `${fmt(worst, 0)} ms worst of ${t.warmMs.length} (cold ${fmt(t.coldMs, 0)} ms)`,
      ok: worst < MAX_TRANSCRIPT_OPEN_MS,
    });
    const key = t.keyMs.length === 0 ? Number.NaN : Math.max(...t.keyMs);
    checks.push({
      target: `on that page a typed key shows < ${MAX_KEY_ECHO_MS} ms (every key)`,
      measured: `${fmt(key, 1)} ms worst of ${t.keyMs.length}; longest task ${fmt(t.longTaskMaxMs, 0)} ms`,
      ok: key < MAX_KEY_ECHO_MS,
    });
  }
  return checks;
}

/** The pass as a human reads it: one row per case and side, then the targets. */
export function renderStreaming(result: StreamingResult): string {
  const out: string[] = [
    "Streaming: each session streams /e2e:flood <chunks> 10 at once; one /ws client subscribed to the board and every task rebuilt every reply exactly (offset-checked).",
    "Bytes per byte of agent text; CPU ms per chunk (all sessions' processes of a role summed; 10 ms tick resolution); cost = backend + agentctl + agent CPU per byte of text;",
    "last frame = the frame completing a reply, received, minus the agent's last chunk, written (worst session).",
    "",
  ];
  const rows = result.cases.flatMap((c) =>
    (["product", "floor"] as const).map((side) => {
      const f = streamFigures(c, c[side]);
      return [
        label(c),
        side,
        `${round(f.textBytes / 1000, 1)} KB`,
        fmt(f.wsPerByte),
        fmt(f.diskPerByte, 1),
        fmt(f.cpuPerChunk.backend, 4),
        fmt(f.cpuPerChunk.agentctl, 4),
        fmt(f.cpuPerChunk.agent, 4),
        fmt(f.costUsPerByte),
        fmt(f.lastFrameMs, 1),
        String(c[side].frames),
        fmt(c[side].wallMs / 1000, 2),
      ];
    }),
  );
  out.push(
    markdownTable(
      [
        "sessions x chunks",
        "side",
        "text",
        "/ws B/B",
        "disk B/B",
        "backend ms/chunk",
        "agentctl ms/chunk",
        "agent ms/chunk",
        "cost us/B",
        "last frame ms",
        "frames",
        "wall s",
      ],
      rows,
    ),
    "",
  );
  const t = result.transcript;
  if (t !== null && "error" in t) out.push(`Task page: not measured (${t.error})`, "");
  else if (t !== null)
    out.push(
      `Task page (Chromium) of ${t.messages.toLocaleString("en-US")} messages: the newest on screen ${fmt(t.coldMs, 0)} ms after navigation start cold, then ${t.warmMs.map((x) => fmt(x, 0)).join(" / ")} ms; ` +
        `typed key to its frame: worst ${fmt(Math.max(...t.keyMs), 1)} ms of ${t.keyMs.length}; longest task ${fmt(t.longTaskMaxMs, 0)} ms.`,
      "",
    );
  out.push(
    markdownTable(
      ["target", "measured", "met"],
      checkStreamingTargets(result).map((c) => [c.target, c.measured, c.ok ? "yes" : "NO"]),
    ),
  );
  return out.join("\n");
}

/** The pass as one JSON object (rounded figures per case and side). */
export function streamingJson(result: StreamingResult): object {
  const side = (c: StreamCase, s: StreamSide) => {
    const f = streamFigures(c, s);
    return {
      ws_bytes_per_byte: round(f.wsPerByte, 3),
      disk_bytes_per_byte: round(f.diskPerByte, 2),
      cpu_ms_per_chunk: {
        backend: round(f.cpuPerChunk.backend, 4),
        agentctl: round(f.cpuPerChunk.agentctl, 4),
        agent: round(f.cpuPerChunk.agent, 4),
      },
      cost_us_per_byte: round(f.costUsPerByte, 3),
      last_frame_ms: round(f.lastFrameMs, 1),
    };
  };
  return {
    cases: result.cases.map((c) => ({ sessions: c.sessions, chunks: c.chunks, size: c.size, product: side(c, c.product), floor: side(c, c.floor) })),
    transcript: result.transcript,
    targets: checkStreamingTargets(result),
  };
}
