/**
 * elicit-* scenarios: the mock agent sends ACP `elicitation/create` requests the way the Claude
 * bridge does (frames copied from the bridge fixtures), then reports each response it received as
 * agent text and ends the turn:
 *   one request:      `elicitation response: <json>`
 *   several requests: `elicitation response #<n>: <json>` (n = 1-based request order)
 *   a failed request: `elicitation error[ #<n>]: <code> <message>`
 * Each report is its own agent_message_chunk ending in "\n", so tests can parse it exactly.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { Scenario, ScenarioContext, ScenarioRegistry } from "../scenario.js";
import {
  ASK_USER_QUESTION_0_101,
  ASK_USER_QUESTION_0_65,
  EMPTY_SCHEMA,
  MCP_API_KEY,
  REFUSAL_FALLBACK,
  URL_MODE,
  type Frame,
} from "./frames/elicitation-frames.js";

/** How long a request waits for agentctl after the turn is cancelled before withdrawing it itself. */
const TURN_CANCEL_GRACE_MS = 5_000;
/** When elicit-agent-cancel withdraws its request (`/e2e:elicit-agent-cancel <ms>` overrides). */
const DEFAULT_AGENT_CANCEL_MS = 300;

/** One request to send: its params and, optionally, when the agent withdraws it ($/cancel_request). */
interface Ask {
  params: Record<string, unknown>;
  cancelAfterMs?: number;
}

type Outcome = { ok: true; response: unknown } | { ok: false; code: string | number; message: string };

/** A deep copy of a fixture frame carrying this session's real id (only if the frame is session-scoped). */
export function withSession(frame: Frame, sessionId: string): Record<string, unknown> {
  const copy = structuredClone(frame) as Record<string, unknown>;
  if (Object.hasOwn(copy, "sessionId")) copy.sessionId = sessionId;
  return copy;
}

/** The 0.65.0 AskUserQuestion frame re-scoped to a JSON-RPC request id instead of a session (AC-17). */
export function requestScoped(): Record<string, unknown> {
  const copy = structuredClone(ASK_USER_QUESTION_0_65) as Record<string, unknown>;
  delete copy.sessionId;
  copy.requestId = "mock-request-1";
  return copy;
}

/**
 * Eleven single-select questions question_0..question_10, declared in plain string order
 * (question_0, question_1, question_10, question_2, ...) so only a D1 sort presents them 0..10.
 */
export function elevenQuestions(sessionId: string): Record<string, unknown> {
  const keys = Array.from({ length: 11 }, (_, i) => `question_${i}`).sort();
  const properties: Record<string, unknown> = {};
  for (const key of keys) {
    const n = key.slice("question_".length);
    properties[key] = {
      type: "string",
      title: `Q${n}`,
      description: `Question ${n}?`,
      oneOf: [
        { const: "Yes", title: "Yes" },
        { const: "No", title: "No" },
      ],
    };
  }
  return {
    mode: "form",
    sessionId,
    toolCallId: "toolu_mock_eleven",
    message: "Please answer the following questions.",
    requestedSchema: { type: "object", properties },
  };
}

/** The 0.65.0 frame plus a marked companion naming a question that does not exist (AC-12e). */
export function orphanCompanion(sessionId: string): Record<string, unknown> {
  const copy = withSession(ASK_USER_QUESTION_0_65, sessionId);
  const schema = copy.requestedSchema as { properties: Record<string, unknown> };
  schema.properties.question_9_custom = {
    type: "string",
    title: "Other",
    description: "Type your own answer instead of choosing an option above (optional).",
    _meta: { _askUserQuestionCustomAnswer: { questionId: "question_9", isCustomAnswer: true } },
  };
  return copy;
}

function errorOutcome(err: unknown): Outcome {
  if (err instanceof acp.RequestError) return { ok: false, code: err.code, message: err.message };
  return { ok: false, code: "ERROR", message: err instanceof Error ? err.message : String(err) };
}

/**
 * Sends one elicitation/create and waits for agentctl's answer. The request is withdrawn with
 * `$/cancel_request` after `cancelAfterMs`, or (so a broken client cannot hang the mock) a grace
 * period after the turn is cancelled; the SDK still waits for the client's answer to it.
 */
async function elicit(ctx: ScenarioContext, ask: Ask): Promise<Outcome> {
  const withdraw = new AbortController();
  const timers: Array<ReturnType<typeof setTimeout>> = [];
  const later = (ms: number, why: string) => timers.push(setTimeout(() => withdraw.abort(new Error(why)), ms));
  if (ask.cancelAfterMs !== undefined) later(ask.cancelAfterMs, "the agent withdrew the elicitation");
  const onTurnCancel = () => later(TURN_CANCEL_GRACE_MS, "turn cancelled and the client did not answer");
  if (ctx.signal.aborted) onTurnCancel();
  else ctx.signal.addEventListener("abort", onTurnCancel, { once: true });
  try {
    const response = await ctx.client.request<unknown, unknown>(acp.methods.client.elicitation.create, ask.params, {
      cancellationSignal: withdraw.signal,
    });
    return { ok: true, response };
  } catch (err) {
    return errorOutcome(err);
  } finally {
    for (const t of timers) clearTimeout(t);
    ctx.signal.removeEventListener("abort", onTurnCancel);
  }
}

async function report(ctx: ScenarioContext, outcomes: readonly Outcome[]): Promise<void> {
  for (const [i, o] of outcomes.entries()) {
    const label = outcomes.length === 1 ? "" : ` #${i + 1}`;
    await ctx.say(o.ok ? `elicitation response${label}: ${JSON.stringify(o.response)}\n` : `elicitation error${label}: ${o.code} ${o.message}\n`);
  }
}

/** A scenario that sends every request of `build` at once and reports all answers in request order. */
function elicitScenario(description: string, build: (ctx: ScenarioContext) => Ask[]): Scenario {
  return {
    description,
    async run(ctx) {
      let asks: Ask[];
      try {
        asks = build(ctx);
      } catch (err) {
        await ctx.say(`elicitation error: BAD_INPUT ${err instanceof Error ? err.message : String(err)}\n`);
        return "end_turn";
      }
      ctx.log(`sending ${asks.length} elicitation/create request(s)`);
      const outcomes = await Promise.all(asks.map((ask) => elicit(ctx, ask)));
      await report(ctx, outcomes);
      return ctx.signal.aborted ? "cancelled" : "end_turn";
    },
  };
}

function parseJsonParams(ctx: ScenarioContext): Ask[] {
  const parsed: unknown = JSON.parse(ctx.rest);
  const params = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? { ...parsed } : { value: parsed };
  if (!Object.hasOwn(params, "sessionId") && !Object.hasOwn(params, "requestId")) {
    (params as Record<string, unknown>).sessionId = ctx.sessionId;
  }
  return [{ params: params as Record<string, unknown> }];
}

/** Every elicit-* scenario, spread into the mock agent's registry. */
export const elicitationScenarios: ScenarioRegistry = {
  "elicit-ask": elicitScenario("AskUserQuestion as bridge 0.65.0 sends it (marked companions)", (ctx) => [
    { params: withSession(ASK_USER_QUESTION_0_65, ctx.sessionId) },
  ]),
  "elicit-ask-latest": elicitScenario("AskUserQuestion as bridge 0.101.0 sends it (companions without marker)", (ctx) => [
    { params: withSession(ASK_USER_QUESTION_0_101, ctx.sessionId) },
  ]),
  "elicit-mcp": elicitScenario("an MCP server's apiKey elicitation passed through (no toolCallId)", (ctx) => [
    { params: withSession(MCP_API_KEY, ctx.sessionId) },
  ]),
  "elicit-refusal": elicitScenario("the refusal-fallback retry dialog", (ctx) => [{ params: withSession(REFUSAL_FALLBACK, ctx.sessionId) }]),
  "elicit-url": elicitScenario("a url-mode elicitation (never advertised; must be declined)", (ctx) => [
    { params: withSession(URL_MODE, ctx.sessionId) },
  ]),
  "elicit-request-scope": elicitScenario("a request-scoped elicitation (must be declined)", () => [{ params: requestScoped() }]),
  "elicit-empty-schema": elicitScenario("a form with no properties (must be declined)", (ctx) => [
    { params: withSession(EMPTY_SCHEMA, ctx.sessionId) },
  ]),
  "elicit-eleven": elicitScenario("eleven questions question_0..question_10 declared out of D1 order", (ctx) => [
    { params: elevenQuestions(ctx.sessionId) },
  ]),
  "elicit-orphan-companion": elicitScenario("AskUserQuestion plus a companion naming a missing question", (ctx) => [
    { params: orphanCompanion(ctx.sessionId) },
  ]),
  "elicit-twice": elicitScenario("two identical AskUserQuestion elicitations at once", (ctx) => [
    { params: withSession(ASK_USER_QUESTION_0_65, ctx.sessionId) },
    { params: withSession(ASK_USER_QUESTION_0_65, ctx.sessionId) },
  ]),
  "elicit-three": elicitScenario("three concurrent elicitations: AskUserQuestion, MCP apiKey, refusal fallback", (ctx) => [
    { params: withSession(ASK_USER_QUESTION_0_65, ctx.sessionId) },
    { params: withSession(MCP_API_KEY, ctx.sessionId) },
    { params: withSession(REFUSAL_FALLBACK, ctx.sessionId) },
  ]),
  "elicit-agent-cancel": elicitScenario("AskUserQuestion withdrawn by the agent ($/cancel_request) after 300 ms", (ctx) => {
    const ms = Number.parseInt(ctx.rest, 10);
    return [
      {
        params: withSession(ASK_USER_QUESTION_0_65, ctx.sessionId),
        cancelAfterMs: Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_AGENT_CANCEL_MS,
      },
    ];
  }),
  "elicit-json": elicitScenario("sends the JSON after the scenario name as elicitation/create params", parseJsonParams),
};
