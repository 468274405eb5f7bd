/**
 * bench-elicit: the agent side of `npm run bench` (tooling/bench). It sends `count`
 * elicitation/create requests in one turn and stamps each with the moment it was sent and the
 * moment the previous answer arrived, so the benchmark can compute, across processes:
 *   ask latency    = operator's /ws receipt  - sent_at
 *   answer latency = prev_response_received_at - operator's POST start
 *
 * `/e2e:bench-elicit <count> [serial|burst]`
 *   serial (default): one request at a time, the next sent as soon as the previous is answered.
 *   burst: all `count` requests at once (holds that many pending, for the memory measurement).
 *
 * Wire format (the message text; the same numbers also ride in `_meta["kandev/bench"]`):
 *   `bench-elicit seq=<n> sent_at=<ms> prev_response_received_at=<ms|none>`
 * and, as the turn's only agent text, one summary line:
 *   `bench-elicit done count=<n> accepted=<k> last_response_received_at=<ms|none>`
 * or, if a request fails: `bench-elicit error seq=<n>: <code> <message>`.
 * Times are `performance.timeOrigin + performance.now()` in ms: comparable across processes of one
 * machine, with sub-millisecond resolution. Over pipes (the CLI) they are taken at the pipe, where
 * the floor's relay agent takes its own (bench-wire.ts); in process, around the SDK call.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { Scenario, ScenarioContext, ScenarioRegistry } from "../scenario.js";

/** The `_meta` key of a bench request's numbers. */
export const BENCH_META_KEY = "kandev/bench";

/** The most requests one bench turn may send (a typo must not flood the operator). */
export const BENCH_MAX_COUNT = 100_000;

export type BenchMode = "serial" | "burst";

/** Wall-clock milliseconds with sub-ms resolution, comparable across processes of one machine. */
export function benchNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Parses `<count> [serial|burst]`; throws with a readable message on anything else. */
export function parseBenchArgs(rest: string): { count: number; mode: BenchMode } {
  const [countText = "", modeText = "serial", ...extra] = rest.split(/\s+/).filter((s) => s.length > 0);
  const count = Number(countText);
  if (!/^\d+$/.test(countText) || count < 1 || count > BENCH_MAX_COUNT) {
    throw new Error(`bench-elicit needs a count between 1 and ${BENCH_MAX_COUNT}, got ${JSON.stringify(countText)}`);
  }
  if (modeText !== "serial" && modeText !== "burst") throw new Error(`bench-elicit mode must be serial or burst, got ${JSON.stringify(modeText)}`);
  if (extra.length > 0) throw new Error(`bench-elicit takes <count> [serial|burst], got extra ${JSON.stringify(extra.join(" "))}`);
  return { count, mode: modeText };
}

const fmt = (ms: number | null): string => (ms === null ? "none" : ms.toFixed(3));

/** The message text of request `seq` (see the module comment for the format). */
export function benchMessage(seq: number, sentAt: number, prevReceivedAt: number | null): string {
  return `bench-elicit seq=${seq} sent_at=${fmt(sentAt)} prev_response_received_at=${fmt(prevReceivedAt)}`;
}

/** The summary line that ends a bench turn. */
export function benchSummary(count: number, accepted: number, lastReceivedAt: number | null): string {
  return `bench-elicit done count=${count} accepted=${accepted} last_response_received_at=${fmt(lastReceivedAt)}\n`;
}

/**
 * One single-select question, the smallest form that maps to a clarification, so the benchmark
 * measures the relay rather than schema mapping of a large form.
 */
export function benchParams(sessionId: string, seq: number, sentAt: number, prevReceivedAt: number | null): Record<string, unknown> {
  return {
    mode: "form",
    sessionId,
    message: benchMessage(seq, sentAt, prevReceivedAt),
    requestedSchema: {
      type: "object",
      properties: {
        choice: {
          type: "string",
          title: "Choice",
          description: "Pick one.",
          oneOf: [
            { const: "a", title: "A" },
            { const: "b", title: "B" },
          ],
        },
      },
      required: ["choice"],
    },
    _meta: { [BENCH_META_KEY]: { seq, sent_at: sentAt, prev_response_received_at: prevReceivedAt } },
  };
}

/** Sends request `seq` and resolves with whether it was accepted and when the answer arrived. */
async function ask(ctx: ScenarioContext, seq: number, prev: number | null): Promise<{ accepted: boolean; receivedAt: number }> {
  // Over pipes, ctx.wireStamps overwrites this send time as the request is written, and has the
  // time its response was read.
  let response: unknown;
  let readAt: number | undefined;
  try {
    response = await ctx.client.request<unknown, unknown>(acp.methods.client.elicitation.create, benchParams(ctx.sessionId, seq, benchNow(), prev), {
      cancellationSignal: ctx.signal,
    });
  } finally {
    readAt = ctx.wireStamps?.takeReceivedAt(ctx.sessionId, seq);
  }
  const receivedAt = readAt ?? benchNow();
  const action = typeof response === "object" && response !== null ? (response as { action?: unknown }).action : undefined;
  return { accepted: action === "accept", receivedAt };
}

function errorText(err: unknown): string {
  if (err instanceof acp.RequestError) return `${err.code} ${err.message}`;
  return `ERROR ${err instanceof Error ? err.message : String(err)}`;
}

export const benchElicit: Scenario = {
  description: "benchmark: <count> [serial|burst] timestamped single-question elicitations, then a summary line",
  async run(ctx) {
    let args: { count: number; mode: BenchMode };
    try {
      args = parseBenchArgs(ctx.rest);
    } catch (err) {
      await ctx.say(`bench-elicit error seq=0: BAD_INPUT ${err instanceof Error ? err.message : String(err)}\n`);
      return "end_turn";
    }
    let accepted = 0;
    let last: number | null = null;
    if (args.mode === "burst") {
      const results = await Promise.allSettled(Array.from({ length: args.count }, (_, i) => ask(ctx, i + 1, null)));
      for (const r of results) {
        if (r.status !== "fulfilled") continue;
        if (r.value.accepted) accepted++;
        last = Math.max(last ?? 0, r.value.receivedAt);
      }
    } else {
      for (let seq = 1; seq <= args.count && !ctx.signal.aborted; seq++) {
        try {
          const r = await ask(ctx, seq, last);
          if (r.accepted) accepted++;
          last = r.receivedAt;
        } catch (err) {
          await ctx.say(`bench-elicit error seq=${seq}: ${errorText(err)}\n`);
          return ctx.signal.aborted ? "cancelled" : "end_turn";
        }
      }
    }
    await ctx.say(benchSummary(args.count, accepted, last));
    return ctx.signal.aborted ? "cancelled" : "end_turn";
  },
};

/** Spread into the mock agent's registry. */
export const benchScenarios: ScenarioRegistry = { "bench-elicit": benchElicit };
