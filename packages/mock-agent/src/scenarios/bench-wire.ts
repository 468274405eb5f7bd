/**
 * Where bench-elicit's times are taken when the mock agent runs over pipes: at the pipe, as the
 * floor's relay agent takes them (tooling/bench/floor/relay-agent.mjs), not around the SDK.
 *
 * A scenario's `ctx.client.request(...)` goes through the ACP SDK before its bytes are written
 * (building the JSON-RPC request, its write queue's promises, the Web stream), and its promise
 * settles only after the response has been read, decoded and dispatched. Stamped around that
 * call, the benchmark's latencies would include the agent's own library work, which the floor's
 * relay agent does not do. So the CLI hands every message it writes to `beforeWrite`, which puts
 * the send time into a bench request (its message text and `_meta`) just before it is encoded,
 * and every message it reads to `onRead`, which notes when the response to such a request arrived.
 * In process (no pipes) nothing calls them, and the scenario falls back to its own clock.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { BENCH_META_KEY, benchMessage, benchNow } from "./bench.js";
import type { FloodStamp } from "./flood.js";

type Id = string | number;

/** One bench request: its session's id and its number in that session's turn. */
const keyOf = (sessionId: string, seq: number): string => `${seq} ${sessionId}`;

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

export class BenchWireStamps {
  /** Bench requests written and not yet answered: JSON-RPC id -> request (keyOf), and back. */
  private readonly keyById = new Map<Id, string>();
  private readonly idByKey = new Map<string, Id>();
  /** When the response to a request (keyOf) was read. */
  private readonly receivedByKey = new Map<string, number>();

  /**
   * `onFloodEnded` receives each `/e2e:flood` turn that sent all its chunks, stamped when its last
   * chunk was written (the CLI appends it to MOCK_AGENT_FLOOD_LOG); without it nothing is kept.
   */
  constructor(
    private readonly now: () => number = benchNow,
    private readonly onFloodEnded: ((stamp: FloodStamp) => void) | null = null,
  ) {}

  /** A flood turn of `sessionId` has just written its last chunk. */
  floodEnded(sessionId: string, chunks: number, size: number): void {
    this.onFloodEnded?.({ session_id: sessionId, chunks, size, last_chunk_at: this.now() });
  }

  /** A bench `elicitation/create` about to be encoded gets its send time, in its text and `_meta`. */
  beforeWrite(message: acp.AnyMessage): void {
    const m = message as Record<string, unknown>;
    if (m.method !== "elicitation/create" || (typeof m.id !== "number" && typeof m.id !== "string")) return;
    const params = asRecord(m.params);
    const stamp = asRecord(asRecord(params?._meta)?.[BENCH_META_KEY]);
    if (params === null || stamp === null || typeof stamp.seq !== "number" || typeof params.sessionId !== "string") return;
    const prev = typeof stamp.prev_response_received_at === "number" ? stamp.prev_response_received_at : null;
    const sentAt = this.now();
    stamp.sent_at = sentAt;
    params.message = benchMessage(stamp.seq, sentAt, prev);
    const key = keyOf(params.sessionId, stamp.seq);
    this.keyById.set(m.id, key);
    this.idByKey.set(key, m.id);
  }

  /** A response to a bench request was read: note when. */
  onRead(message: Record<string, unknown>): void {
    if ("method" in message) return;
    const id = message.id;
    if (typeof id !== "number" && typeof id !== "string") return;
    const key = this.keyById.get(id);
    if (key === undefined) return;
    this.keyById.delete(id);
    this.idByKey.delete(key);
    this.receivedByKey.set(key, this.now());
  }

  /**
   * When the response to request `seq` of session `sessionId` was read, or undefined if it was not
   * (the request failed before it was written, or was abandoned). Forgets the request either way.
   */
  takeReceivedAt(sessionId: string, seq: number): number | undefined {
    const key = keyOf(sessionId, seq);
    const at = this.receivedByKey.get(key);
    this.receivedByKey.delete(key);
    const id = this.idByKey.get(key);
    if (id !== undefined) {
      this.idByKey.delete(key);
      this.keyById.delete(id);
    }
    return at;
  }

  /** Requests still tracked (for tests: nothing is kept once each request has been taken). */
  get size(): number {
    return this.keyById.size + this.receivedByKey.size;
  }
}
