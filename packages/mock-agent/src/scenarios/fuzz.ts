/**
 * Hostile and stress scenarios for the reliability suite (docs/RELIABILITY.md):
 *   /e2e:fuzz seed=42 count=3000 [window=16] [timeout=10000]
 *       sends `count` seeded cases from fuzz-cases.ts (invalid elicitations, stray methods,
 *       notifications and raw junk lines), `window` at a time; reports
 *       `fuzz summary: <json>` (what came back, tallied), then sends one valid AskUserQuestion
 *       elicitation and reports `fuzz valid response: <json>`.
 *   /e2e:fuzz-oversize bytes=9437184
 *       writes one JSON-RPC line of that many bytes, then waits until the turn is cancelled or the
 *       connection goes away (a client must refuse the frame without dying).
 *   /e2e:elicit-many count=100
 *       sends `count` valid AskUserQuestion elicitations at once (tool call ids toolu_many_<i>);
 *       reports `elicit-many responses: <json>` (how many of each answer).
 *   /e2e:elicit-race-withdraw
 *       sends A (toolu_race_A) then B (toolu_race_B); the moment B's answer arrives it withdraws A
 *       ($/cancel_request), so a test can race an answer to A against the agent's cancel.
 *       Reports `race A: <json>` and `race B: <json>`.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { Scenario, ScenarioContext, ScenarioRegistry } from "../scenario.js";
import { fuzzCases, type FuzzCase } from "./fuzz-cases.js";
import { ASK_USER_QUESTION_0_65 } from "./frames/elicitation-frames.js";
import { withSession } from "./elicitation.js";

/** `key=value` words of the prompt rest, as numbers. Unknown or malformed words are ignored. */
export function numericArgs(rest: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const word of rest.split(/\s+/)) {
    const m = /^([a-z]+)=(\d+)$/.exec(word);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}

/** What came back for the fuzz cases, by kind of answer. */
export interface FuzzTally {
  sent: number;
  /** elicitation/create answered `{action: "decline"}`. */
  declined: number;
  /** Requests answered with a JSON-RPC error, by code. */
  rpcErrors: Record<string, number>;
  /** Anything else answered to an elicitation or request: a bug in the client. */
  unexpected: number;
  /** No answer within the timeout (withdrawn with $/cancel_request): a bug in the client. */
  hung: number;
  notified: number;
  /** Raw lines written, by what the client owes for them. */
  raw: Record<string, number>;
  /** Raw lines skipped because the transport has no raw access (in-process runs). */
  rawSkipped: number;
  byCategory: Record<string, number>;
}

function bump(record: Record<string, number>, key: string): void {
  record[key] = (record[key] ?? 0) + 1;
}

function errorCode(err: unknown): string {
  return err instanceof acp.RequestError ? String(err.code) : "transport";
}

async function play(ctx: ScenarioContext, c: FuzzCase, tally: FuzzTally, timeoutMs: number): Promise<void> {
  bump(tally.byCategory, `${c.kind}:${c.category}`);
  switch (c.kind) {
    case "elicit":
    case "request": {
      const method = c.kind === "elicit" ? acp.methods.client.elicitation.create : c.method;
      const withdraw = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        withdraw.abort(new Error("no answer in time"));
      }, timeoutMs);
      try {
        const res = await ctx.client.request<unknown, unknown>(method, c.params, { cancellationSignal: withdraw.signal });
        if (timedOut) tally.hung += 1;
        else if (c.kind === "elicit" && (res as { action?: unknown } | null)?.action === "decline") tally.declined += 1;
        else tally.unexpected += 1;
      } catch (err) {
        if (timedOut) tally.hung += 1;
        else bump(tally.rpcErrors, errorCode(err));
      } finally {
        clearTimeout(timer);
      }
      return;
    }
    case "notify":
      await ctx.client.notify(c.method, c.params).catch(() => undefined);
      tally.notified += 1;
      return;
    case "raw":
      if (ctx.writeRaw === null) {
        tally.rawSkipped += 1;
        return;
      }
      await ctx.writeRaw(c.line);
      bump(tally.raw, c.expect);
      return;
    default: {
      const _x: never = c;
      return _x;
    }
  }
}

const fuzz: Scenario = {
  description: "seeded hostile elicitations and JSON-RPC junk, then one valid elicitation",
  async run(ctx) {
    const args = numericArgs(ctx.rest);
    const seed = args.seed ?? 1;
    const count = args.count ?? 1000;
    const window = Math.max(1, args.window ?? 16);
    const timeoutMs = args.timeout ?? 10_000;
    const tally: FuzzTally = { sent: 0, declined: 0, rpcErrors: {}, unexpected: 0, hung: 0, notified: 0, raw: {}, rawSkipped: 0, byCategory: {} };
    const inFlight = new Set<Promise<void>>();
    for (const c of fuzzCases(seed, count, ctx.sessionId)) {
      if (ctx.signal.aborted) break;
      tally.sent += 1;
      const p = play(ctx, c, tally, timeoutMs).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= window) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    ctx.log(`fuzz: ${tally.sent} cases sent (seed ${seed})`);
    await ctx.say(`fuzz summary: ${JSON.stringify(tally)}\n`);
    if (ctx.signal.aborted) return "cancelled";
    try {
      const res = await ctx.client.request<unknown, unknown>(
        acp.methods.client.elicitation.create,
        withSession(ASK_USER_QUESTION_0_65, ctx.sessionId),
      );
      await ctx.say(`fuzz valid response: ${JSON.stringify(res)}\n`);
    } catch (err) {
      await ctx.say(`fuzz valid error: ${errorCode(err)}\n`);
    }
    return "end_turn";
  },
};

const fuzzOversize: Scenario = {
  description: "writes one oversized JSON-RPC line, then waits for cancel or disconnect",
  async run(ctx) {
    const bytes = numericArgs(ctx.rest).bytes ?? 9 * 1024 * 1024;
    if (ctx.writeRaw === null) {
      await ctx.say("fuzz-oversize needs raw stdout (run the CLI)\n");
      return "end_turn";
    }
    const head = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(ctx.sessionId)},"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`;
    const tail = `"}}}}`;
    await ctx.writeRaw(`${head}${"x".repeat(Math.max(0, bytes - head.length - tail.length))}${tail}`);
    ctx.log(`fuzz-oversize: wrote a ${bytes}-byte line`);
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) return resolve();
      ctx.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    return "cancelled";
  },
};

function askWith(ctx: ScenarioContext, toolCallId: string): Record<string, unknown> {
  return { ...withSession(ASK_USER_QUESTION_0_65, ctx.sessionId), toolCallId };
}

/** Sends one elicitation; resolves with its answer, or `{error: code}`. Withdrawn when `signal` aborts. */
async function ask(ctx: ScenarioContext, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
  try {
    return await ctx.client.request<unknown, unknown>(
      acp.methods.client.elicitation.create,
      params,
      signal === undefined ? {} : { cancellationSignal: signal },
    );
  } catch (err) {
    return { error: errorCode(err) };
  }
}

const elicitMany: Scenario = {
  description: "many valid AskUserQuestion elicitations at once",
  async run(ctx) {
    const count = numericArgs(ctx.rest).count ?? 100;
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => ask(ctx, askWith(ctx, `toolu_many_${i}`))));
    const counts: Record<string, number> = {};
    for (const a of answers) {
      const r = a as { action?: string; error?: string };
      bump(counts, r.action ?? `error ${r.error ?? "?"}`);
    }
    await ctx.say(`elicit-many responses: ${JSON.stringify(counts)}\n`);
    return ctx.signal.aborted ? "cancelled" : "end_turn";
  },
};

const elicitRaceWithdraw: Scenario = {
  description: "A and B; A is withdrawn the moment B is answered",
  async run(ctx) {
    const withdrawA = new AbortController();
    const a = ask(ctx, askWith(ctx, "toolu_race_A"), withdrawA.signal);
    const b = ask(ctx, askWith(ctx, "toolu_race_B")).then((res) => {
      withdrawA.abort(new Error("withdrawn after B"));
      return res;
    });
    const [resA, resB] = await Promise.all([a, b]);
    await ctx.say(`race A: ${JSON.stringify(resA)}\n`);
    await ctx.say(`race B: ${JSON.stringify(resB)}\n`);
    return ctx.signal.aborted ? "cancelled" : "end_turn";
  },
};

/** Every scenario of this file, spread into the mock agent's registry. */
export const fuzzScenarios: ScenarioRegistry = {
  fuzz,
  "fuzz-oversize": fuzzOversize,
  "elicit-many": elicitMany,
  "elicit-race-withdraw": elicitRaceWithdraw,
};
