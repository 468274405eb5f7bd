import type { Scenario } from "../scenario.js";

/** The most chunks and the largest chunk one `/e2e:flood` turn may send. */
export const MAX_FLOOD_CHUNKS = 100_000;
export const MAX_FLOOD_CHUNK_SIZE = 64 * 1024;

/**
 * Chunk `i` (0-based) of a flood: its number in base 36, a dot, then dashes up to `size`
 * characters, so a test can rebuild the whole reply and tell where a piece went missing.
 */
export function floodChunk(i: number, size: number): string {
  return `${i.toString(36)}.`.padEnd(size, "-").slice(0, size);
}

/** `<chunks> [size] [hold]` -> numbers and the flag, or an error naming the bad argument. Pure. */
export function parseFloodArgs(rest: string): { chunks: number; size: number; hold: boolean } {
  const words = rest.split(/\s+/).filter((w) => w.length > 0);
  const hold = words.at(-1) === "hold" && words.length > 1;
  const [c = "", s = "10", ...extra] = hold ? words.slice(0, -1) : words;
  const chunks = Number(c);
  const size = Number(s);
  if (extra.length > 0 || !/^\d+$/.test(c) || chunks < 1 || chunks > MAX_FLOOD_CHUNKS) {
    throw new Error(`flood needs <chunks> between 1 and ${MAX_FLOOD_CHUNKS} and an optional [size], got ${JSON.stringify(rest)}`);
  }
  if (!/^\d+$/.test(s) || size < 2 || size > MAX_FLOOD_CHUNK_SIZE) {
    throw new Error(`flood's [size] must be between 2 and ${MAX_FLOOD_CHUNK_SIZE}, got ${JSON.stringify(s)}`);
  }
  return { chunks, size, hold };
}

/**
 * One line of MOCK_AGENT_FLOOD_LOG: a flood turn that sent all its chunks, and when its last chunk
 * was handed to the pipe (`performance.timeOrigin + performance.now()`, comparable across the
 * processes of one machine). The streaming bench reads it to time the board's last frame.
 */
export interface FloodStamp {
  /** The agent's ACP session id (a board session's `acp_session_id`). */
  session_id: string;
  chunks: number;
  size: number;
  last_chunk_at: number;
}

/** The file line of a stamp. Pure. */
export function floodStampLine(stamp: FloodStamp): string {
  return `${JSON.stringify(stamp)}\n`;
}

/** Every stamp of a MOCK_AGENT_FLOOD_LOG file; throws on a line that is not one, so a bench never times against garbage. */
export function parseFloodStamps(text: string): FloodStamp[] {
  return text
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      const v = JSON.parse(line) as Partial<FloodStamp>;
      if (typeof v.session_id !== "string" || typeof v.chunks !== "number" || typeof v.size !== "number" || typeof v.last_chunk_at !== "number")
        throw new Error(`not a flood stamp: ${line.slice(0, 200)}`);
      return { session_id: v.session_id, chunks: v.chunks, size: v.size, last_chunk_at: v.last_chunk_at };
    });
}

/**
 * `/e2e:flood <chunks> [size=10] [hold]`: streams `chunks` agent_message_chunks of `size` characters
 * as fast as the pipe takes them, as a model streams a long reply; honours session/cancel. With
 * `hold` the turn then stays open until cancelled (a reply caught mid-stream). A turn that sent
 * every chunk is stamped through `ctx.wireStamps` (MOCK_AGENT_FLOOD_LOG, bench-wire.ts).
 */
export const flood: Scenario = {
  description: "streams <chunks> chunks of [size] characters as fast as it can, then ends or [hold]s the turn (/e2e:flood 2000 10)",
  async run(ctx) {
    const { chunks, size, hold } = parseFloodArgs(ctx.rest);
    for (let i = 0; i < chunks; i++) {
      if (ctx.signal.aborted) return "cancelled";
      await ctx.say(floodChunk(i, size));
    }
    // The SDK has written the last chunk to the pipe by now (stdout pipe writes are synchronous on
    // Linux; see @kandev/acp-stdio), so this time is within microseconds of the write.
    ctx.wireStamps?.floodEnded(ctx.sessionId, chunks, size);
    if (!hold) return "end_turn";
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) return resolve();
      ctx.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    return "cancelled";
  },
};
