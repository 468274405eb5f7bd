import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { createMockAgent } from "../agent.js";
import { BenchWireStamps } from "./bench-wire.js";
import { flood, floodChunk, floodStampLine, parseFloodArgs, parseFloodStamps, type FloodStamp } from "./flood.js";

describe("flood", () => {
  test("each chunk has exactly the asked size and says its number", () => {
    assert.equal(floodChunk(0, 10), "0.--------");
    assert.equal(floodChunk(35, 4), "z.--");
    assert.equal(floodChunk(36 ** 3, 3), "100", "a number longer than the chunk is cut, never longer");
    for (const size of [2, 10, 1024]) assert.equal(floodChunk(12345, size).length, size);
  });

  test("arguments: chunks required, size defaults to 10, hold last, anything else is refused by name", () => {
    assert.deepEqual(parseFloodArgs("2000"), { chunks: 2000, size: 10, hold: false });
    assert.deepEqual(parseFloodArgs(" 5  1024 "), { chunks: 5, size: 1024, hold: false });
    assert.deepEqual(parseFloodArgs("5 hold"), { chunks: 5, size: 10, hold: true });
    assert.deepEqual(parseFloodArgs("5 64 hold"), { chunks: 5, size: 64, hold: true });
    assert.throws(() => parseFloodArgs("hold"), /<chunks>/);
    assert.throws(() => parseFloodArgs("5 hold 10"), /<chunks>/);
    assert.throws(() => parseFloodArgs(""), /<chunks>/);
    assert.throws(() => parseFloodArgs("0"), /<chunks>/);
    assert.throws(() => parseFloodArgs("5 1"), /\[size\]/);
    assert.throws(() => parseFloodArgs("5 10 x"), /<chunks>/);
  });

  test("a stamp survives its file line; a line that is not a stamp is refused, never skipped", () => {
    const a: FloodStamp = { session_id: "mock-1", chunks: 2000, size: 10, last_chunk_at: 1733400000123.456 };
    const b: FloodStamp = { session_id: "mock-2", chunks: 5, size: 2, last_chunk_at: 7 };
    assert.deepEqual(parseFloodStamps(floodStampLine(a) + floodStampLine(b)), [a, b]);
    assert.deepEqual(parseFloodStamps(""), []);
    assert.throws(() => parseFloodStamps('{"session_id":"s","chunks":1}\n'), /not a flood stamp/);
  });

  test("a turn that sent every chunk is stamped once, with the agent's session and its clock", async () => {
    const stamps: FloodStamp[] = [];
    const wireStamps = new BenchWireStamps(
      () => 42.5,
      (s) => stamps.push(s),
    );
    const agent = createMockAgent({ scenarios: { flood }, wireStamps }).app;
    const chunks: string[] = [];
    const client = acp.client({ name: "scripted" }).onNotification(acp.methods.client.session.update, ({ params }) => {
      if (params.update.sessionUpdate !== "agent_message_chunk" || params.update.content.type !== "text") return;
      chunks.push(params.update.content.text);
    });
    const { sessionId, stopReason } = await client.connectWith(agent, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: "/", mcpServers: [] });
      const res = await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/e2e:flood 3 4" }] });
      return { sessionId, stopReason: res.stopReason };
    });
    assert.equal(stopReason, "end_turn");
    assert.deepEqual(chunks, [floodChunk(0, 4), floodChunk(1, 4), floodChunk(2, 4)]);
    assert.deepEqual(stamps, [{ session_id: sessionId, chunks: 3, size: 4, last_chunk_at: 42.5 }]);
  });

  test("without a stamp sink a flood keeps nothing", () => {
    const wire = new BenchWireStamps(() => 1);
    wire.floodEnded("s", 1, 2);
    assert.equal(wire.size, 0);
  });
});
