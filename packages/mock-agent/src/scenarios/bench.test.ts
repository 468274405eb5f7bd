// bench-elicit against a scripted in-process ACP client: the timestamps chain request to request,
// burst sends everything before any answer, and bad input is reported rather than sent.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { stdioJsonStream } from "@kandev/acp-stdio";
import { createMockAgent } from "../agent.js";
import { pipeStream } from "../pipes.js";
import { benchMessage, benchScenarios, parseBenchArgs } from "./bench.js";
import { BenchWireStamps } from "./bench-wire.js";

type Received = { params: Record<string, unknown>; at: number };

/** Plays `prompt` against a fresh in-process mock agent, or against `agent`, the client's end of a piped one. */
async function play(prompt: string, answer: (index: number) => Promise<unknown> | unknown, agent?: acp.Stream) {
  const target = agent ?? createMockAgent({ scenarios: benchScenarios }).app;
  const received: Received[] = [];
  const text: string[] = [];
  const client = acp
    .client({ name: "scripted" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      if (params.update.sessionUpdate === "agent_message_chunk" && params.update.content.type === "text") text.push(params.update.content.text);
    })
    .onRequest(
      acp.methods.client.elicitation.create,
      (raw: unknown) => raw,
      ({ params }) => {
        received.push({ params: params as Record<string, unknown>, at: performance.timeOrigin + performance.now() });
        return answer(received.length - 1);
      },
    );
  const stop = await client.connectWith(target, async (ctx) => {
    await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
    const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: "/", mcpServers: [] });
    const res = await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: prompt }] });
    return { stopReason: res.stopReason, sessionId };
  });
  return { ...stop, received, text: text.join("") };
}

const ACCEPT = { action: "accept", content: { choice: "a" } };
const num = (s: string, key: string): number | null => {
  const m = new RegExp(`${key}=(\\S+)`).exec(s);
  return m === null || m[1] === "none" ? null : Number(m[1]);
};

describe("bench-elicit", () => {
  test("serial: each request carries its send time and the previous answer's receipt time", async () => {
    const r = await play("/e2e:bench-elicit 3", () => ACCEPT);
    assert.equal(r.received.length, 3);
    const messages = r.received.map((x) => x.params.message as string);
    assert.deepEqual(
      messages.map((m) => num(m, "seq")),
      [1, 2, 3],
    );
    assert.equal(num(messages[0]!, "prev_response_received_at"), null);
    for (const [i, m] of messages.entries()) {
      const sent = num(m, "sent_at")!;
      assert.ok(sent <= r.received[i]!.at, "sent before the client saw it");
      assert.deepEqual((r.received[i]!.params._meta as Record<string, { seq: number }>)["kandev/bench"]!.seq, i + 1);
      if (i > 0) {
        const prev = num(m, "prev_response_received_at")!;
        assert.ok(prev >= r.received[i - 1]!.at && prev <= sent, "the previous answer arrived between the two requests");
      }
    }
    assert.equal(r.received[0]!.params.sessionId, r.sessionId);
    assert.match(r.text, /^bench-elicit done count=3 accepted=3 last_response_received_at=\d+\.\d{3}\n$/);
    assert.equal(r.stopReason, "end_turn");
  });

  test("over pipes, as the CLI runs it: the times are the ones taken at the pipe, not around the SDK call", async () => {
    // The agent's clock is the test's: the client sets it to 1000 * n as it answers request n, and
    // every chunk the agent reads moves it on by 0.5 just after the agent's reader has seen it, so
    // a time taken once the SDK has dispatched the response would be 0.5 later.
    let t = 0;
    const wireStamps = new BenchWireStamps(() => t);
    const toAgent = new PassThrough();
    const fromAgent = new PassThrough();
    const agentStream = pipeStream(fromAgent, toAgent, wireStamps);
    toAgent.on("data", () => (t += 0.5));
    createMockAgent({ scenarios: benchScenarios, wireStamps }).app.connect(agentStream);
    const clientEnd = stdioJsonStream(toAgent, fromAgent, { maxMessageBytes: 1 << 20, onMessage: (m) => m as unknown as acp.AnyMessage });
    const r = await play(
      "/e2e:bench-elicit 3",
      (i) => {
        t = 1000 * (i + 1);
        return ACCEPT;
      },
      clientEnd,
    );
    assert.equal(r.stopReason, "end_turn");
    const messages = r.received.map((x) => x.params.message as string);
    assert.equal(messages.length, 3);
    assert.ok(num(messages[0]!, "sent_at")! < 1000, "the first send time is the agent's clock, not the wall clock");
    assert.equal(num(messages[0]!, "prev_response_received_at"), null);
    for (const n of [1, 2]) {
      assert.equal(num(messages[n]!, "prev_response_received_at"), 1000 * n, `answer ${n}: the time its bytes were read`);
      assert.equal(num(messages[n]!, "sent_at"), 1000 * n + 0.5, `request ${n + 1}: the time it was written`);
    }
    assert.match(r.text, /^bench-elicit done count=3 accepted=3 last_response_received_at=3000\.000\n$/);
    assert.equal(wireStamps.size, 0, "nothing kept after the turn");
    toAgent.end();
    fromAgent.end();
  });

  test("burst: every request is out before the first answer", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const r = await play("/e2e:bench-elicit 4 burst", async (i) => {
      if (i === 3) release();
      await gate;
      return i === 0 ? { action: "decline" } : ACCEPT;
    });
    assert.equal(r.received.length, 4);
    assert.match(r.text, /^bench-elicit done count=4 accepted=3 /);
  });

  test("bad arguments are reported as agent text and nothing is sent", async () => {
    const r = await play("/e2e:bench-elicit lots", () => ACCEPT);
    assert.equal(r.received.length, 0);
    assert.match(r.text, /^bench-elicit error seq=0: BAD_INPUT bench-elicit needs a count/);
  });

  test("parseBenchArgs and benchMessage", () => {
    assert.deepEqual(parseBenchArgs("5"), { count: 5, mode: "serial" });
    assert.deepEqual(parseBenchArgs(" 7  burst "), { count: 7, mode: "burst" });
    assert.throws(() => parseBenchArgs(""), /count/);
    assert.throws(() => parseBenchArgs("0"), /count/);
    assert.throws(() => parseBenchArgs("3 sideways"), /mode/);
    assert.throws(() => parseBenchArgs("3 burst extra"), /extra/);
    assert.equal(benchMessage(2, 1000.5, null), "bench-elicit seq=2 sent_at=1000.500 prev_response_received_at=none");
  });
});
