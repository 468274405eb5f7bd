// Every input bound agentctl applies to what an agent sends (docs/RELIABILITY.md "Bounds"),
// in-process and exact: the pure request/mapping checks, the manager's own limits, the ACP
// message guard, and the fuzz corpus checked against the same rules it is meant to break.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { deepJson, fuzzCases, validBody } from "@kandev/mock-agent";
import { AGENT_EVENTS, LIMITS } from "@kandev/protocol";
import { ACP_MAX_JSON_DEPTH, exceedsDepth, guardAcpMessage } from "../../src/acp-guard.js";
import { ElicitationManager, MAX_PENDING_ELICITATIONS } from "../../src/elicitation/index.js";
import { formParams, mapRaw } from "../elicitation-helpers.js";

const SESSION = "sess-1";
const never = new AbortController().signal;

function manager(overrides: Partial<ConstructorParameters<typeof ElicitationManager>[0]> = {}) {
  const events: Array<{ event: string; payload: Record<string, unknown> }> = [];
  const logs: string[] = [];
  let n = 0;
  const m = new ElicitationManager({
    features: () => ({ acpElicitation: true }),
    answerTimeoutMs: 60_000,
    emit: (event, payload) => {
      AGENT_EVENTS[event].parse(payload);
      events.push({ event, payload });
    },
    log: (l) => logs.push(l),
    newId: () => `p-${++n}`,
    knowsSession: (id) => id === SESSION,
    ...overrides,
  });
  return { m, events, logs, requested: () => events.filter((e) => e.event === "elicitation.requested") };
}

describe("elicitation/create bounds (pure mapping)", () => {
  test(`properties: at most ${LIMITS.maxQuestions}; options: at most ${LIMITS.maxOptionsPerQuestion} per question`, () => {
    const props = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i}`, { type: "string" }]));
    assert.equal(mapRaw(formParams(props(LIMITS.maxQuestions))).ok, true);
    assert.deepEqual(mapRaw(formParams(props(LIMITS.maxQuestions + 1))), {
      ok: false,
      reason: "too_many_properties",
      detail: `${LIMITS.maxQuestions + 1} properties (at most ${LIMITS.maxQuestions})`,
    });
    const options = (n: number) => ({ type: "string", enum: Array.from({ length: n }, (_, i) => `o${i}`) });
    assert.equal(mapRaw(formParams({ q: options(LIMITS.maxOptionsPerQuestion) })).ok, true);
    const tooMany = mapRaw(formParams({ q: options(LIMITS.maxOptionsPerQuestion + 1) }));
    assert.equal(tooMany.ok ? "ok" : tooMany.reason, "too_many_options");
  });

  test(`ids (keys, option consts, toolCallId) longer than ${LIMITS.maxIdChars} cannot be answered and are refused, never clipped`, () => {
    const long = "k".repeat(LIMITS.maxIdChars + 1);
    const keyOnly = mapRaw(formParams({ [long]: { type: "string" } }));
    assert.equal(keyOnly.ok ? "ok" : keyOnly.reason, "no_questions");
    const constOnly = mapRaw(formParams({ q: { type: "string", oneOf: [{ const: long }] } }));
    assert.equal(constOnly.ok ? "ok" : constOnly.reason, "no_questions");
    const tool = mapRaw(formParams({ q: { type: "string" } }, { toolCallId: long }));
    assert.deepEqual(tool.ok ? "ok" : [tool.reason, tool.detail], ["malformed", `toolCallId is longer than ${LIMITS.maxIdChars} characters`]);
    assert.equal(mapRaw(formParams({ q: { type: "string" } }, { toolCallId: "t".repeat(LIMITS.maxIdChars) })).ok, true);
  });

  test(`display text is clipped: labels to ${LIMITS.maxLabelChars}, prompts, descriptions and the message to ${LIMITS.maxPromptChars}`, () => {
    const huge = "x".repeat(1_000_000);
    const mapped = mapRaw(
      formParams(
        { q: { type: "string", title: huge, description: huge, oneOf: [{ const: "a", title: huge, description: huge }] } },
        { message: huge },
      ),
    );
    assert.ok(mapped.ok);
    const [q] = mapped.value.questions;
    assert.equal(q!.title!.length, LIMITS.maxLabelChars);
    assert.equal(q!.prompt.length, LIMITS.maxPromptChars);
    assert.equal(q!.options[0]!.label.length, LIMITS.maxLabelChars);
    assert.equal(q!.options[0]!.description!.length, LIMITS.maxPromptChars);
    assert.equal(mapped.value.message.length, LIMITS.maxPromptChars);
    assert.ok(mapped.value.message.endsWith("…"));
  });

  test("deep nesting anywhere in a property is ignored, never recursed into", () => {
    let v: unknown = { type: "string" };
    for (let i = 0; i < 100_000; i++) v = { type: "object", properties: { x: v } };
    const r = mapRaw(formParams({ deep: v }));
    assert.equal(r.ok ? "ok" : r.reason, "no_questions");
  });
});

describe("ElicitationManager bounds", () => {
  test("a request scoped to a session agentctl never opened is declined with no event (it would outlive every turn cancel)", async () => {
    const { m, requested, logs } = manager();
    assert.deepEqual(await m.handleCreate(formParams({ q: { type: "string" } }, { sessionId: "someone-else" }), never), { action: "decline" });
    assert.equal(requested().length, 0);
    assert.equal(m.pendingCount, 0);
    assert.match(logs.join("\n"), /declined \(unknown_session\)/);
  });

  test(`at most ${MAX_PENDING_ELICITATIONS} pending at once by default; the next is declined until one settles`, async () => {
    const { m, requested, logs } = manager({ maxPending: 3 });
    const parked = [0, 1, 2].map(() => m.handleCreate(formParams({ q: { type: "string" } }, { sessionId: SESSION }), never));
    assert.equal(m.pendingCount, 3);
    assert.deepEqual(await m.handleCreate(formParams({ q: { type: "string" } }, { sessionId: SESSION }), never), { action: "decline" });
    assert.match(logs.join("\n"), /declined \(too_many_pending\): 3 elicitations are already pending \(at most 3\)/);
    assert.equal(requested().length, 3);
    m.respond({ pending_id: "p-1", answers: [] });
    assert.equal(m.pendingCount, 2);
    void m.handleCreate(formParams({ q: { type: "string" } }, { sessionId: SESSION }), never);
    assert.equal(m.pendingCount, 3, "room again after a settle");
    m.cancelAll("shutdown");
    await Promise.all(parked);
    assert.equal(MAX_PENDING_ELICITATIONS, 1000);
  });
});

describe("ACP message guard (acp-guard.ts)", () => {
  test(`depth is measured without recursion and bounded at ${ACP_MAX_JSON_DEPTH}`, () => {
    assert.equal(exceedsDepth(JSON.parse(deepJson(ACP_MAX_JSON_DEPTH)), ACP_MAX_JSON_DEPTH), false);
    assert.equal(exceedsDepth(JSON.parse(deepJson(ACP_MAX_JSON_DEPTH + 1)), ACP_MAX_JSON_DEPTH), true);
    assert.equal(exceedsDepth(JSON.parse(deepJson(1_000_000, "array")), ACP_MAX_JSON_DEPTH), true);
    assert.equal(exceedsDepth(42, 1), false);
  });

  test("too deep: a request keeps id and method but loses its params, a response becomes an error, a notification is dropped, junk stays junk", () => {
    const deep = JSON.parse(deepJson(5_000));
    assert.deepEqual(guardAcpMessage({ jsonrpc: "2.0", id: 7, method: "elicitation/create", params: deep }), {
      action: "replace",
      message: { jsonrpc: "2.0", id: 7, method: "elicitation/create", params: null },
      note: `request elicitation/create nested deeper than ${ACP_MAX_JSON_DEPTH} levels: params dropped`,
    });
    const response = guardAcpMessage({ jsonrpc: "2.0", id: "x", result: deep });
    assert.equal(response.action, "replace");
    assert.deepEqual(response.action === "replace" && response.message.error, {
      code: -32600,
      message: `response nested deeper than ${ACP_MAX_JSON_DEPTH} levels`,
    });
    assert.equal(guardAcpMessage({ jsonrpc: "2.0", method: "session/update", params: deep }).action, "drop");
    const junk = guardAcpMessage({ jsonrpc: "1.0", junk: deep });
    assert.deepEqual(junk.action === "replace" && junk.message, {
      jsonrpc: "1.0",
      kandev: `message nested deeper than ${ACP_MAX_JSON_DEPTH} levels`,
    });
    // Whatever the guard lets through can be serialised again (the SDK echoes invalid messages).
    for (const r of [response, junk]) if (r.action === "replace") JSON.stringify(r.message);
    assert.deepEqual(guardAcpMessage({ jsonrpc: "2.0", id: 1, result: { a: [1, { b: 2 }] } }), { action: "pass" });
  });
});

describe("the fuzz corpus breaks the rules it is meant to break", () => {
  test("every elicit case of 20,000 (seed 1) is declined by the same checks agentctl runs; the valid body is accepted", async () => {
    const { m, requested } = manager();
    let declined = 0;
    for (const c of fuzzCases(1, 20_000, SESSION)) {
      if (c.kind !== "elicit") continue;
      assert.deepEqual(await m.handleCreate(c.params, never), { action: "decline" }, `${c.category}: ${JSON.stringify(c.params).slice(0, 200)}`);
      declined += 1;
    }
    assert.equal(requested().length, 0);
    assert.ok(declined > 13_000, `${declined} elicit cases`);
    void m.handleCreate(validBody(SESSION), never);
    assert.equal(requested().length, 1, "the corpus' base body is valid, so each case fails for its own reason");
    m.cancelAll("shutdown");
  });

  test("the corpus is reproducible: the same seed gives the same cases", () => {
    const a = JSON.stringify([...fuzzCases(42, 300, SESSION)]);
    assert.equal(JSON.stringify([...fuzzCases(42, 300, SESSION)]), a);
    assert.notEqual(JSON.stringify([...fuzzCases(43, 300, SESSION)]), a);
  });
});
