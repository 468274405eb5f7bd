// The text formats the benchmark reads, as pure parsers. The real path's formats are written by
// the mock agent's bench-elicit scenario (packages/mock-agent/src/scenarios/bench.ts, whose module
// comment is their definition); the floor's by tooling/bench/floor/relay-agent.mjs.

/** One request as the agent stamped it: its 1-based sequence number and times (ms, see bench.ts). */
export interface AskStamp {
  seq: number;
  sentAt: number;
  /** When the agent received the previous request's answer; null for the first request of a turn. */
  prevReceivedAt: number | null;
}

/** The line that ends a bench turn. */
export interface DoneStamp {
  count: number;
  accepted: number;
  lastReceivedAt: number | null;
}

const ASK_RE = /^bench-elicit seq=(\d+) sent_at=(\d+(?:\.\d+)?) prev_response_received_at=(none|\d+(?:\.\d+)?)$/;
const DONE_RE = /^bench-elicit done count=(\d+) accepted=(\d+) last_response_received_at=(none|\d+(?:\.\d+)?)\s*$/;
const ERROR_RE = /^bench-elicit error seq=(\d+): (.*)$/s;

const time = (s: string): number | null => (s === "none" ? null : Number(s));

/** Parses a clarification message's content; null when it is not a bench-elicit request. */
export function parseAsk(content: string): AskStamp | null {
  const m = ASK_RE.exec(content);
  if (m === null) return null;
  return { seq: Number(m[1]), sentAt: Number(m[2]), prevReceivedAt: time(m[3]!) };
}

/** Parses agent text; null when it is not a bench-elicit summary. */
export function parseDone(text: string): DoneStamp | null {
  const m = DONE_RE.exec(text);
  if (m === null) return null;
  return { count: Number(m[1]), accepted: Number(m[2]), lastReceivedAt: time(m[3]!) };
}

/** Parses agent text; the error a bench-elicit turn reported, or null. */
export function parseBenchError(text: string): { seq: number; message: string } | null {
  const m = ERROR_RE.exec(text.trim());
  return m === null ? null : { seq: Number(m[1]), message: m[2]! };
}

/** A line from the floor's relay agent (tooling/bench/floor/relay-agent.mjs). */
export type FloorLine =
  | { kind: "ask"; session: number; seq: number; sentAt: number; prevReceivedAt: number | null }
  | { kind: "done"; session: number; count: number; lastReceivedAt: number | null };

/** Parses one floor frame; throws on anything the relay agent does not write. */
export function parseFloorLine(text: string): FloorLine {
  const v = JSON.parse(text) as Record<string, unknown>;
  const num = (k: string) => {
    const x = v[k];
    if (typeof x !== "number" || !Number.isFinite(x)) throw new Error(`floor line: ${k} is not a number: ${text.slice(0, 200)}`);
    return x;
  };
  const opt = (k: string) => (v[k] === null ? null : num(k));
  if (v.done === true) return { kind: "done", session: num("s"), count: num("count"), lastReceivedAt: opt("last") };
  return { kind: "ask", session: num("s"), seq: num("seq"), sentAt: num("sent_at"), prevReceivedAt: opt("prev") };
}

/** A line from the streaming floor's agent (tooling/bench/floor/flood-agent.mjs). */
export type FloodLine = { kind: "chunk"; session: number; text: string } | { kind: "done"; session: number; lastChunkAt: number };

/** Parses one streaming-floor frame; throws on anything the flood agent does not write. */
export function parseFloodLine(text: string): FloodLine {
  const v = JSON.parse(text) as {
    s?: unknown;
    done?: unknown;
    last_chunk_at?: unknown;
    params?: { sessionId?: unknown; update?: { content?: { text?: unknown } } };
  };
  if (v.done === true) {
    if (typeof v.s !== "number" || typeof v.last_chunk_at !== "number")
      throw new Error(`flood line: a done line without s or last_chunk_at: ${text.slice(0, 200)}`);
    return { kind: "done", session: v.s, lastChunkAt: v.last_chunk_at };
  }
  const id = v.params?.sessionId;
  const chunk = v.params?.update?.content?.text;
  const m = typeof id === "string" ? /^floor-(\d+)$/.exec(id) : null;
  if (m === null || typeof chunk !== "string") throw new Error(`flood line: not a floor chunk: ${text.slice(0, 200)}`);
  return { kind: "chunk", session: Number(m[1]), text: chunk };
}
