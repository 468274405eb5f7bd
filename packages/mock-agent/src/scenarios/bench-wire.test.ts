// BenchWireStamps: bench requests get their send time as they are written, their responses are
// timed as they are read, anything else is left alone, and nothing is kept once taken.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type * as acp from "@agentclientprotocol/sdk";
import { benchParams } from "./bench.js";
import { BenchWireStamps } from "./bench-wire.js";

function clock(start: number) {
  let t = start;
  return {
    now: () => t,
    set: (v: number) => {
      t = v;
    },
  };
}

const request = (id: number | string, seq: number, prev: number | null, session = "s1") =>
  ({ jsonrpc: "2.0", id, method: "elicitation/create", params: benchParams(session, seq, 1, prev) }) as unknown as acp.AnyMessage;

describe("BenchWireStamps", () => {
  test("a bench request gets the time it is written, in its text and _meta; its response, the time it is read", () => {
    const c = clock(500.25);
    const wire = new BenchWireStamps(c.now);
    const m = request(7, 3, 400.5);
    wire.beforeWrite(m);
    const params = (m as unknown as { params: { message: string; _meta: Record<string, Record<string, unknown>> } }).params;
    assert.equal(params.message, "bench-elicit seq=3 sent_at=500.250 prev_response_received_at=400.500");
    assert.deepEqual(params._meta["kandev/bench"], { seq: 3, sent_at: 500.25, prev_response_received_at: 400.5 });
    c.set(612.125);
    wire.onRead({ jsonrpc: "2.0", id: 7, result: { action: "accept" } });
    c.set(999);
    assert.equal(wire.takeReceivedAt("s1", 3), 612.125, "the read time, not the time the scenario asks");
    assert.equal(wire.takeReceivedAt("s1", 3), undefined, "taken once");
    assert.equal(wire.size, 0);
  });

  test("an error response is timed too; the first request's 'none' is kept", () => {
    const c = clock(10);
    const wire = new BenchWireStamps(c.now);
    const m = request("r-1", 1, null);
    wire.beforeWrite(m);
    assert.match(
      (m as unknown as { params: { message: string } }).params.message,
      /^bench-elicit seq=1 sent_at=10\.000 prev_response_received_at=none$/,
    );
    c.set(11);
    wire.onRead({ jsonrpc: "2.0", id: "r-1", error: { code: -32603, message: "x" } });
    assert.equal(wire.takeReceivedAt("s1", 1), 11);
  });

  test("other messages pass untouched: notifications, other methods, a create without bench _meta, an id or a session; requests read are not responses", () => {
    const wire = new BenchWireStamps(() => 42);
    const plain = { jsonrpc: "2.0", id: 1, method: "elicitation/create", params: { mode: "form", message: "hi", requestedSchema: {} } };
    const noId = { ...request(0, 1, null), id: undefined } as unknown as Record<string, unknown>;
    delete noId.id;
    const others = [
      { jsonrpc: "2.0", method: "session/update", params: { update: {} } },
      { jsonrpc: "2.0", id: 2, method: "session/request_permission", params: { _meta: { "kandev/bench": { seq: 1 } } } },
      plain,
      noId,
      { jsonrpc: "2.0", id: 3, method: "elicitation/create", params: { _meta: { "kandev/bench": { seq: "1" } } } },
      { jsonrpc: "2.0", id: 4, method: "elicitation/create", params: null },
      { jsonrpc: "2.0", id: 8, method: "elicitation/create", params: { _meta: { "kandev/bench": { seq: 1 } } } },
    ];
    const before = structuredClone(others);
    for (const m of others) wire.beforeWrite(m as unknown as acp.AnyMessage);
    assert.deepEqual(others, before);
    wire.beforeWrite(request(5, 1, null));
    wire.onRead({ jsonrpc: "2.0", id: 5, method: "elicitation/create", params: {} });
    wire.onRead({ jsonrpc: "2.0", id: 6, result: {} });
    assert.equal(wire.takeReceivedAt("s1", 1), undefined, "a request with the same id is not its response");
    assert.equal(wire.size, 0);
  });

  test("the same number in two sessions of one agent is two requests", () => {
    const c = clock(1);
    const wire = new BenchWireStamps(c.now);
    wire.beforeWrite(request(1, 1, null, "a"));
    wire.beforeWrite(request(2, 1, null, "b"));
    c.set(2);
    wire.onRead({ jsonrpc: "2.0", id: 2, result: {} });
    c.set(3);
    wire.onRead({ jsonrpc: "2.0", id: 1, result: {} });
    assert.equal(wire.takeReceivedAt("a", 1), 3);
    assert.equal(wire.takeReceivedAt("b", 1), 2);
    assert.equal(wire.size, 0);
  });

  test("a request never answered (the turn was cancelled) is forgotten when the scenario takes it", () => {
    const wire = new BenchWireStamps(() => 1);
    wire.beforeWrite(request(9, 4, null));
    assert.equal(wire.size, 1);
    assert.equal(wire.takeReceivedAt("s1", 4), undefined);
    assert.equal(wire.size, 0);
    wire.onRead({ jsonrpc: "2.0", id: 9, result: {} });
    assert.equal(wire.takeReceivedAt("s1", 4), undefined, "a late response is not attributed to anything");
  });
});
