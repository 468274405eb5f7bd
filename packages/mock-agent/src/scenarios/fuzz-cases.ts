/**
 * The hostile-agent corpus of the `fuzz` scenario: a seeded, reproducible stream of `elicitation/create`
 * requests that no client may show to an operator, plus JSON-RPC junk. Pure: no I/O, so the same
 * seed gives the same cases in the scenario and in tests that check them against agentctl's rules.
 *
 * Every case is invalid *by construction*, and says what a correct client answers:
 * - `elicit`: sent through the SDK as `elicitation/create`; a client must decline it (or reject it
 *   with a JSON-RPC error), never park it for an operator.
 * - `request`: another method through the SDK; a JSON-RPC error is due (-32601 / -32602).
 * - `notify`: a notification through the SDK; nothing is due.
 * - `raw`: one line written straight to stdout; `expect` says what comes back (an error with
 *   `id: null`, a reply under the line's own id, or nothing).
 */

/** A small seeded PRNG (mulberry32): fast, 32-bit state, good enough to spread cases. */
export interface Rng {
  /** [0, 1) */
  next(): number;
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int, pick: (items) => items[int(0, items.length - 1)]!, chance: (p) => next() < p };
}

export type RawExpect = "error_null_id" | "reply" | "none";

export type FuzzCase =
  | { kind: "elicit"; category: string; params: unknown }
  | { kind: "request"; category: string; method: string; params: unknown }
  | { kind: "notify"; category: string; method: string; params: unknown }
  /** `id` is set when `expect` is "reply": the JSON-RPC id the answer must carry. */
  | { kind: "raw"; category: string; line: string; expect: RawExpect; id?: string | number };

/** Prefix of the string ids raw request lines carry, so their replies can be found in a wire log. */
export const RAW_ID_PREFIX = "fuzz-raw-";

/** A well-formed, session-scoped form: what every mutation below starts from. */
export function validBody(sessionId: string): Record<string, unknown> {
  return {
    mode: "form",
    sessionId,
    message: "Pick one",
    requestedSchema: {
      type: "object",
      properties: {
        choice: {
          type: "string",
          title: "Choice",
          oneOf: [
            { const: "a", title: "A" },
            { const: "b", title: "B" },
          ],
        },
      },
    },
  };
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-./:{}[]\"'\\é✓😀";

function text(rng: Rng, min: number, max: number): string {
  const n = rng.int(min, max);
  if (n > 4096) return rng.pick(["x", "é", "😀", '"', "\\"]).repeat(n);
  let out = "";
  for (let i = 0; i < n; i++) out += ALPHABET[rng.int(0, ALPHABET.length - 1)];
  return out;
}

/** A string that is never one of this agent's ACP session ids. */
function foreignSession(rng: Rng): string {
  return rng.chance(0.1) ? `sess-${"z".repeat(rng.int(5_000, 50_000))}` : `not-a-session-${text(rng, 1, 64)}`;
}

/** JSON nested `depth` levels, built as text so no JSON.stringify recursion is needed. */
export function deepJson(depth: number, shape: "object" | "array" = "object"): string {
  return shape === "object" ? `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` : `${"[".repeat(depth)}1${"]".repeat(depth)}`;
}

function nested(depth: number): unknown {
  let v: unknown = { type: "string" };
  for (let i = 0; i < depth; i++) v = { type: "object", properties: { x: v } };
  return v;
}

/** Property schemas that map to no question (rule 5, or options a client cannot offer). */
function ignoredProperty(rng: Rng): unknown {
  return rng.pick<() => unknown>([
    () => ({ type: "number" }),
    () => ({ type: "integer", minimum: 0 }),
    () => ({ type: "boolean", default: true }),
    () => ({ type: "object", properties: { a: { type: "string" } } }),
    () => ({ type: "null" }),
    () => ({}),
    () => ({ type: ["string", "null"] }),
    () => ({ type: "array" }),
    () => ({ type: "array", items: { type: "string" } }),
    () => ({ type: "array", items: "x" }),
    () => ({ type: "string", oneOf: "x" }),
    () => ({ type: "string", oneOf: [1, 2] }),
    () => ({ type: "string", oneOf: [{ title: "no const" }] }),
    () => ({ type: "string", oneOf: [{ const: 5 }] }),
    () => ({ type: "string", enum: [1, 2] }),
    () => ({ type: "string", oneOf: [{ const: "x".repeat(257) }] }),
    () => ({ type: "array", items: { anyOf: [{ const: null }] } }),
    () => ({ type: "string", _meta: { _askUserQuestionCustomAnswer: { questionId: "nobody" } } }),
    () => "string",
    () => 42,
    () => null,
    () => [],
  ])();
}

function withProps(sessionId: string, properties: Record<string, unknown>): Record<string, unknown> {
  return { ...validBody(sessionId), requestedSchema: { type: "object", properties } };
}

function manyOptions(rng: Rng): unknown {
  const n = rng.int(101, 400);
  const consts = Array.from({ length: n }, (_, i) => `o${i}`);
  return rng.pick<() => unknown>([
    () => ({ type: "string", oneOf: consts.map((c) => ({ const: c, title: c })) }),
    () => ({ type: "string", enum: consts }),
    () => ({ type: "array", items: { anyOf: consts.map((c) => ({ const: c })) } }),
  ])();
}

/** One `elicitation/create` params object a client must decline. */
function elicitCase(rng: Rng, s: string): { category: string; params: unknown } {
  const body = validBody(s);
  const r = rng.int(0, 99);
  if (r < 6) return { category: "not_an_object", params: rng.pick<unknown>([null, 0, -1, 1e308, true, "form", "", [], [1, 2], [body]]) };
  if (r < 14) {
    const mode = rng.pick<unknown>([undefined, "url", "URL", "Form", "", 1, null, {}, ["form"], "form ", text(rng, 1, 20)]);
    const p = { ...body, mode };
    if (mode === undefined) delete p.mode;
    return { category: "bad_mode", params: p };
  }
  if (r < 26) {
    const p: Record<string, unknown> = { ...body };
    switch (rng.int(0, 4)) {
      case 0:
        delete p.sessionId;
        break;
      case 1:
        p.sessionId = rng.pick<unknown>(["", 0, {}, [], true, null]);
        break;
      case 2:
        p.requestId = rng.pick<unknown>(["r-1", 7, text(rng, 1, 30)]);
        break;
      case 3:
        delete p.sessionId;
        p.requestId = rng.pick<unknown>(["r-1", 7, text(rng, 1, 30)]);
        break;
      default:
        p.sessionId = foreignSession(rng);
    }
    return { category: "bad_scope", params: p };
  }
  if (r < 32) {
    const p: Record<string, unknown> = { ...body, message: rng.pick<unknown>([null, 0, {}, [], true]) };
    if (rng.chance(0.3)) delete p.message;
    return { category: "bad_message", params: p };
  }
  if (r < 40) {
    const schema = rng.pick<unknown>([
      undefined,
      null,
      "object",
      [],
      1,
      { type: "array", properties: {} },
      { type: "string" },
      { type: 5 },
      { type: "object", properties: [] },
      { type: "object", properties: "x" },
      { type: "object", properties: 5 },
      { type: "object" },
      { type: "object", properties: null },
      { type: "object", properties: {} },
    ]);
    const p = { ...body, requestedSchema: schema };
    if (schema === undefined) delete p.requestedSchema;
    return { category: "bad_schema", params: p };
  }
  if (r < 45) {
    const props: Record<string, unknown> = {};
    for (let i = 0, n = rng.int(65, 200); i < n; i++) props[`q${i}`] = { type: "string", title: `Q${i}` };
    return { category: "too_many_properties", params: withProps(s, props) };
  }
  if (r < 50) return { category: "too_many_options", params: withProps(s, { fine: { type: "string" }, crowded: manyOptions(rng) }) };
  if (r < 62) {
    const props: Record<string, unknown> = {};
    for (let i = 0, n = rng.int(1, 12); i < n; i++) props[`p${i}`] = ignoredProperty(rng);
    // Valid schemas under keys nobody can answer: empty, or longer than an id may be.
    if (rng.chance(0.3)) props[""] = { type: "string" };
    if (rng.chance(0.3)) props["k".repeat(rng.int(257, 5_000))] = { type: "string", description: text(rng, 0, 200) };
    return { category: "nothing_mappable", params: withProps(s, props) };
  }
  if (r < 66) return { category: "deep_schema", params: withProps(s, { deep: nested(rng.int(50, 600)) }) };
  if (r < 74) {
    const huge = text(rng, 5_000, rng.chance(0.1) ? 1_000_000 : 100_000);
    const p: Record<string, unknown> = withProps(s, { ["k".repeat(300)]: { type: "string", description: huge } });
    p.message = rng.chance(0.5) ? huge : "m";
    if (rng.chance(0.5)) p.sessionId = foreignSession(rng);
    return { category: "oversized_strings", params: p };
  }
  if (r < 82) {
    return { category: "bad_tool_call_id", params: { ...body, toolCallId: rng.pick<unknown>([5, {}, [], true, "t".repeat(rng.int(257, 5_000))]) } };
  }
  // Mistyped fields together: each alone would already be declined.
  return {
    category: "mistyped",
    params: {
      mode: rng.pick<unknown>([1, true, "url"]),
      sessionId: rng.pick<unknown>([1, {}, foreignSession(rng)]),
      message: 5,
      requestedSchema: [],
    },
  };
}

const UNKNOWN_METHODS = [
  "kandev/evil",
  "session/unknown",
  "fs/read_text_file",
  "fs/write_text_file",
  "terminal/create",
  "_kandev/x",
  "elicitation/createx",
];

function requestCase(rng: Rng, s: string): { category: string; method: string; params: unknown } {
  if (rng.chance(0.3)) {
    // Permission requests the SDK's own schema refuses (-32602): never parked.
    const params = rng.pick<unknown>([
      null,
      { sessionId: s },
      { sessionId: s, toolCall: 5, options: [] },
      { sessionId: s, toolCall: {}, options: "x" },
    ]);
    return { category: "bad_permission", method: "session/request_permission", params };
  }
  const method = rng.chance(0.2) ? `x/${text(rng, 1, 40)}` : rng.pick(UNKNOWN_METHODS);
  return { category: "unknown_method", method, params: rng.pick<unknown>([{}, null, [1], { sessionId: s }]) };
}

function notifyCase(rng: Rng, s: string): { category: string; method: string; params: unknown } {
  return rng.pick<() => { category: string; method: string; params: unknown }>([
    () => ({ category: "bad_update", method: "session/update", params: { sessionId: s, update: { sessionUpdate: "nope" } } }),
    () => ({ category: "bad_update", method: "session/update", params: rng.pick<unknown>([null, 5, { update: 1 }]) }),
    () => ({ category: "stray_cancel", method: "$/cancel_request", params: { requestId: rng.pick<unknown>([123456, "nope", null]) } }),
    () => ({ category: "unknown_notification", method: `x/${text(rng, 1, 20)}`, params: {} }),
  ])();
}

function rawCase(rng: Rng, s: string, i: number): Omit<Extract<FuzzCase, { kind: "raw" }>, "kind"> {
  const id = `${RAW_ID_PREFIX}${i}`;
  const valid = JSON.stringify(validBody(s));
  const invalid = JSON.stringify({ ...validBody(s), mode: "url" });
  const r = rng.int(0, 99);
  if (r < 15) {
    const line = rng.pick([
      "{",
      "not json",
      '{"jsonrpc":"2.0","id":1,',
      "{'a':1}",
      "[1,2",
      "NaN",
      "\u0001\u0002",
      `x${text(rng, 1, 200).replace(/[\r\n]/g, "")}`,
    ]);
    return { category: "invalid_json", line, expect: "error_null_id" };
  }
  if (r < 25) {
    // A well-formed elicitation inside a batch: refused whole, never processed.
    return { category: "batch", line: `[{"jsonrpc":"2.0","id":"${id}","method":"elicitation/create","params":${valid}}]`, expect: "error_null_id" };
  }
  if (r < 37) {
    const version = rng.pick(['"1.0"', '"2"', "2", "null", '"2.0 "']);
    return {
      category: "wrong_jsonrpc",
      line: `{"jsonrpc":${version},"id":"${id}","method":"elicitation/create","params":${valid}}`,
      expect: "error_null_id",
    };
  }
  if (r < 47) {
    const badId = rng.pick(['{"a":1}', "[1]", "true", "1e400", "-1e999"]);
    return { category: "bad_id", line: `{"jsonrpc":"2.0","id":${badId},"method":"elicitation/create","params":${valid}}`, expect: "error_null_id" };
  }
  if (r < 57) {
    const line = rng.pick([
      `{"jsonrpc":"2.0","id":"nothing-${i}","result":{"action":"accept"}}`,
      `{"jsonrpc":"2.0","id":${900_000_000 + i},"error":{"code":-1,"message":"x"}}`,
      `{"jsonrpc":"2.0","id":"nothing-${i}","result":1,"error":{}}`,
      `{"jsonrpc":"2.0","id":null,"result":null}`,
    ]);
    return { category: "response_to_nothing", line, expect: "none" };
  }
  if (r < 65)
    return { category: "unknown_method_raw", line: `{"jsonrpc":"2.0","id":"${id}","method":"no/such/${i}","params":{}}`, expect: "reply", id };
  if (r < 72) {
    const longId = `${id}-${"9".repeat(rng.int(1_000, 100_000))}`;
    return {
      category: "huge_string_id",
      line: `{"jsonrpc":"2.0","id":"${longId}","method":"elicitation/create","params":${invalid}}`,
      expect: "reply",
      id: longId,
    };
  }
  if (r < 79) {
    const literal = `${i + 1}e300`;
    return {
      category: "huge_numeric_id",
      line: `{"jsonrpc":"2.0","id":${literal},"method":"elicitation/create","params":${invalid}}`,
      expect: "reply",
      id: Number(literal),
    };
  }
  if (r < 87) {
    // Deep junk where a schema should be: parses, maps to nothing, is declined under its own id.
    const deep = deepJson(rng.int(5_000, 60_000));
    const params = `{"mode":"form","sessionId":${JSON.stringify(s)},"message":"m","requestedSchema":{"type":"object","properties":{"q":${deep}}}}`;
    return { category: "deep_params", line: `{"jsonrpc":"2.0","id":"${id}","method":"elicitation/create","params":${params}}`, expect: "reply", id };
  }
  if (r < 95) {
    // A deep message that is neither request, notification nor response: a client that echoes it
    // back in its -32600 (as the SDK does) must not choke on serialising it.
    const deep = deepJson(rng.int(5_000, 60_000), rng.chance(0.5) ? "object" : "array");
    return { category: "deep_invalid_envelope", line: `{"jsonrpc":"1.0","junk":${deep}}`, expect: "error_null_id" };
  }
  return { category: "blank", line: rng.pick(["", "   ", "\t"]), expect: "none" };
}

/** The cases of one fuzz run, in sending order. The same (seed, count, sessionId) gives the same cases. */
export function* fuzzCases(seed: number, count: number, sessionId: string): Generator<FuzzCase> {
  const rng = mulberry32(seed);
  for (let i = 0; i < count; i++) {
    const r = rng.int(0, 99);
    if (r < 70) yield { kind: "elicit", ...elicitCase(rng, sessionId) };
    else if (r < 80) yield { kind: "request", ...requestCase(rng, sessionId) };
    else if (r < 85) yield { kind: "notify", ...notifyCase(rng, sessionId) };
    else yield { kind: "raw", ...rawCase(rng, sessionId, i) };
  }
}
