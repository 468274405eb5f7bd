import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAsk, parseBenchError, parseDone, parseFloodLine, parseFloorLine } from "./wire.js";

describe("bench-elicit text (written by the mock agent's bench scenario)", () => {
  test("a request, with and without the previous answer's receipt", () => {
    assert.deepEqual(parseAsk("bench-elicit seq=1 sent_at=1732900000000.125 prev_response_received_at=none"), {
      seq: 1,
      sentAt: 1732900000000.125,
      prevReceivedAt: null,
    });
    assert.deepEqual(parseAsk("bench-elicit seq=12 sent_at=2.5 prev_response_received_at=1.000"), { seq: 12, sentAt: 2.5, prevReceivedAt: 1 });
  });
  test("anything else is not a request", () => {
    for (const other of [
      "Please answer the following questions.",
      "bench-elicit seq=x sent_at=1 prev_response_received_at=none",
      "bench-elicit seq=1 sent_at=1",
    ]) {
      assert.equal(parseAsk(other), null, other);
    }
  });
  test("the summary line, with its trailing newline", () => {
    assert.deepEqual(parseDone("bench-elicit done count=3 accepted=3 last_response_received_at=99.500\n"), {
      count: 3,
      accepted: 3,
      lastReceivedAt: 99.5,
    });
    assert.deepEqual(parseDone("bench-elicit done count=1 accepted=0 last_response_received_at=none"), {
      count: 1,
      accepted: 0,
      lastReceivedAt: null,
    });
    assert.equal(parseDone("bench-elicit seq=1 sent_at=1 prev_response_received_at=none"), null);
  });
  test("an error line", () => {
    assert.deepEqual(parseBenchError("bench-elicit error seq=4: -32603 Internal error\n"), { seq: 4, message: "-32603 Internal error" });
    assert.equal(parseBenchError("ok"), null);
  });
});

describe("floor lines (written by floor/relay-agent.mjs)", () => {
  test("ask and done", () => {
    assert.deepEqual(parseFloorLine('{"s":3,"seq":2,"sent_at":10.5,"prev":9}'), { kind: "ask", session: 3, seq: 2, sentAt: 10.5, prevReceivedAt: 9 });
    assert.deepEqual(parseFloorLine('{"s":0,"seq":1,"sent_at":1,"prev":null}'), { kind: "ask", session: 0, seq: 1, sentAt: 1, prevReceivedAt: null });
    assert.deepEqual(parseFloorLine('{"s":1,"done":true,"count":5,"last":20}'), { kind: "done", session: 1, count: 5, lastReceivedAt: 20 });
  });
  test("a malformed line throws, naming the field", () => {
    assert.throws(() => parseFloorLine('{"s":1,"seq":"2","sent_at":1,"prev":null}'), /seq is not a number/);
    assert.throws(() => parseFloorLine("not json"));
  });
});

describe("streaming floor lines (written by floor/flood-agent.mjs)", () => {
  test("a chunk: an ACP agent_message_chunk of session floor-<n>; the end: its last chunk's time", () => {
    const chunk = {
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "floor-3", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "0.--------" } } },
    };
    assert.deepEqual(parseFloodLine(JSON.stringify(chunk)), { kind: "chunk", session: 3, text: "0.--------" });
    assert.deepEqual(parseFloodLine('{"s":3,"done":true,"last_chunk_at":1733400000000.25}'), {
      kind: "done",
      session: 3,
      lastChunkAt: 1733400000000.25,
    });
  });
  test("anything else is refused, never skipped", () => {
    assert.throws(() => parseFloodLine('{"s":3,"done":true}'), /without s or last_chunk_at/);
    assert.throws(() => parseFloodLine('{"params":{"sessionId":"mock-1","update":{"content":{"text":"x"}}}}'), /not a floor chunk/);
    assert.throws(() => parseFloodLine("not json"));
  });
});
