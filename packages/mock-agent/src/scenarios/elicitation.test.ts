// The elicit-* scenarios against a scripted in-process ACP client (real SDK, no agentctl): what
// each sends, and that it reports exactly what it received. End to end with agentctl lives in
// packages/agentctl/test/elicitation-integration.test.ts.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { createMockAgent } from "../agent.js";
import { elicitationScenarios } from "./elicitation.js";

type Received = { params: Record<string, unknown>; signal: AbortSignal };

/** Runs one prompt against the mock agent; `answer` decides each elicitation's response. */
async function play(prompt: string, answer: (r: Received, index: number) => Promise<unknown> | unknown) {
  const { app } = createMockAgent({ scenarios: elicitationScenarios });
  const received: Received[] = [];
  const text: string[] = [];
  const client = acp
    .client({ name: "scripted" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      if (params.update.sessionUpdate === "agent_message_chunk" && params.update.content.type === "text") {
        text.push(params.update.content.text);
      }
    })
    .onRequest(
      acp.methods.client.elicitation.create,
      (raw: unknown) => raw,
      ({ params, signal }) => {
        const r = { params: params as Record<string, unknown>, signal };
        received.push(r);
        return answer(r, received.length - 1);
      },
    );
  const stop = await client.connectWith(app, async (ctx) => {
    await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
    const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: "/", mcpServers: [] });
    const res = await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: prompt }] });
    return { stopReason: res.stopReason, sessionId };
  });
  return { ...stop, received, text };
}

const schemaOf = (p: Record<string, unknown>) => (p.requestedSchema as { properties?: Record<string, unknown> }).properties ?? {};

describe("elicit-* scenarios", () => {
  test("elicit-ask sends the 0.65.0 frame with the real session id and reports the response", async () => {
    const r = await play("/e2e:elicit-ask", () => ({ action: "accept", content: { question_0: "Red" } }));
    assert.equal(r.received.length, 1);
    assert.equal(r.received[0]?.params.sessionId, r.sessionId);
    assert.equal(r.received[0]?.params.toolCallId, "toolu_fake_1");
    assert.ok("_meta" in (schemaOf(r.received[0]!.params).question_0_custom as object));
    assert.deepEqual(r.text, ['elicitation response: {"action":"accept","content":{"question_0":"Red"}}\n']);
    assert.equal(r.stopReason, "end_turn");
  });

  test("elicit-ask-latest sends the 0.101.0 frame whose companions carry no marker", async () => {
    const r = await play("/e2e:elicit-ask-latest", () => ({ action: "decline" }));
    assert.ok(!("_meta" in (schemaOf(r.received[0]!.params).question_0_custom as object)));
    assert.deepEqual(r.text, ['elicitation response: {"action":"decline"}\n']);
  });

  test("elicit-mcp, elicit-refusal, elicit-url, elicit-empty-schema send their fixture frames", async () => {
    const mcp = await play("/e2e:elicit-mcp", () => ({ action: "decline" }));
    assert.deepEqual(Object.keys(schemaOf(mcp.received[0]!.params)), ["apiKey"]);
    assert.ok(!("toolCallId" in mcp.received[0]!.params));
    const refusal = await play("/e2e:elicit-refusal", () => ({ action: "decline" }));
    assert.deepEqual(Object.keys(schemaOf(refusal.received[0]!.params)), ["choice"]);
    const url = await play("/e2e:elicit-url", () => ({ action: "decline" }));
    assert.equal(url.received[0]?.params.mode, "url");
    const empty = await play("/e2e:elicit-empty-schema", () => ({ action: "decline" }));
    assert.deepEqual(schemaOf(empty.received[0]!.params), {});
  });

  test("elicit-request-scope carries requestId and no sessionId", async () => {
    const r = await play("/e2e:elicit-request-scope", () => ({ action: "decline" }));
    assert.ok(!("sessionId" in r.received[0]!.params));
    assert.equal(r.received[0]?.params.requestId, "mock-request-1");
  });

  test("elicit-eleven declares question_0..question_10 in plain string order (question_10 before question_2)", async () => {
    const r = await play("/e2e:elicit-eleven", () => ({ action: "accept", content: {} }));
    const keys = Object.keys(schemaOf(r.received[0]!.params));
    assert.equal(keys.length, 11);
    assert.ok(keys.indexOf("question_10") < keys.indexOf("question_2"));
  });

  test("elicit-orphan-companion adds a companion naming question_9, which does not exist", async () => {
    const r = await play("/e2e:elicit-orphan-companion", () => ({ action: "decline" }));
    const props = schemaOf(r.received[0]!.params);
    assert.ok("question_9_custom" in props && !("question_9" in props));
  });

  test("elicit-twice and elicit-three send their requests concurrently and report each in request order", async () => {
    const gate: Array<() => void> = [];
    const twice = play(
      "/e2e:elicit-twice",
      (_r, i) => new Promise((resolve) => gate.push(() => resolve({ action: "accept", content: { n: String(i) } }))),
    );
    while (gate.length < 2) await new Promise((res) => setImmediate(res));
    // Both are outstanding at once; answer the second first.
    gate[1]?.();
    gate[0]?.();
    const r = await twice;
    assert.deepEqual(r.text, [
      'elicitation response #1: {"action":"accept","content":{"n":"0"}}\n',
      'elicitation response #2: {"action":"accept","content":{"n":"1"}}\n',
    ]);
    const three = await play("/e2e:elicit-three", (_r, i) => ({ action: i === 1 ? "decline" : "cancel" }));
    assert.equal(three.received.length, 3);
    assert.equal(three.text.length, 3);
    assert.match(three.text[1] ?? "", /^elicitation response #2: \{"action":"decline"\}/);
  });

  test("elicit-agent-cancel withdraws its request with $/cancel_request and reports the client's answer", async () => {
    const started = Date.now();
    const r = await play(
      "/e2e:elicit-agent-cancel 50",
      ({ signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve({ action: "cancel" }), { once: true })),
    );
    assert.ok(Date.now() - started >= 45);
    assert.ok(r.received[0]?.signal.aborted);
    assert.deepEqual(r.text, ['elicitation response: {"action":"cancel"}\n']);
  });

  test("elicit-json sends the given params (session id filled in) and reports bad JSON as an error", async () => {
    const r = await play('/e2e:elicit-json {"mode":"form","message":"m","requestedSchema":{"properties":{"a":{"type":"string"}}}}', () => ({
      action: "accept",
      content: { a: "x" },
    }));
    assert.equal(r.received[0]?.params.sessionId, r.sessionId);
    const bad = await play("/e2e:elicit-json {nope", () => ({ action: "decline" }));
    assert.equal(bad.received.length, 0);
    assert.match(bad.text[0] ?? "", /^elicitation error: BAD_INPUT /);
  });

  test("a client error is reported as an elicitation error line", async () => {
    const r = await play("/e2e:elicit-ask", () => {
      throw acp.RequestError.invalidParams(undefined, "nope");
    });
    assert.match(r.text[0] ?? "", /^elicitation error: -32602 /);
  });
});
