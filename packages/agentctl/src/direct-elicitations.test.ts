import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { DirectElicitations } from "./direct-elicitations.js";
import type { CancelSignal } from "./cancel-signal.js";

const tick = () => new Promise<void>((r) => setImmediate(r));

function setup(opts: { ready?: () => boolean; handle?: (params: unknown, signal: CancelSignal) => Promise<unknown> } = {}) {
  const sent: unknown[] = [];
  const calls: Array<{ params: unknown; signal: CancelSignal; answer: (v: unknown) => void }> = [];
  const deferred: Array<() => void> = [];
  const direct = new DirectElicitations({
    handle:
      opts.handle ??
      ((params, signal) => new Promise((resolve) => calls.push({ params, signal, answer: resolve }))),
    send: (m) => sent.push(m),
    ready: opts.ready ?? (() => true),
    defer: (fn) => void deferred.push(fn),
  });
  return { direct, sent, calls, runDeferred: () => deferred.splice(0).forEach((fn) => fn()), deferred };
}

const req = (id: unknown, params: unknown = { mode: "form" }) => ({ jsonrpc: "2.0", id, method: "elicitation/create", params });

describe("DirectElicitations (elicitation/create beside the SDK, same JSON-RPC envelope)", () => {
  test("takes exactly the elicitation/create requests the SDK would accept as requests; leaves everything else to it", async () => {
    const s = setup();
    for (const id of [1, "a", null, 0.5]) assert.equal(s.direct.take(req(id)), true, String(id));
    const others = [
      { ...req(2), jsonrpc: "1.0" },
      { jsonrpc: "2.0", method: "elicitation/create", params: {} }, // a notification
      { ...req({}), method: "elicitation/create" }, // an id the SDK refuses
      { ...req(3), method: "session/request_permission" },
      { jsonrpc: "2.0", id: 4, result: {} },
    ];
    for (const m of others) assert.equal(s.direct.take(m), false, JSON.stringify(m));
    await tick();
    assert.equal(s.calls.length, 4);
    assert.deepEqual(s.calls[0]!.params, { mode: "form" }, "params exactly as received");
  });

  test("answers {jsonrpc, id, result} once the handler resolves (undefined reads null), and forgets the request", async () => {
    const s = setup();
    s.direct.take(req(7));
    s.direct.take(req("x"));
    await tick();
    s.calls[1]!.answer(undefined);
    s.calls[0]!.answer({ action: "accept", content: { a: "b" } });
    await tick();
    assert.deepEqual(s.sent, [
      { jsonrpc: "2.0", id: "x", result: null },
      { jsonrpc: "2.0", id: 7, result: { action: "accept", content: { a: "b" } } },
    ]);
    assert.equal(s.direct.openCount, 0);
  });

  test("$/cancel_request aborts that request's signal with -32800 (and is still passed on); other ids are ignored", async () => {
    const s = setup();
    s.direct.take(req(1));
    s.direct.take(req(2));
    await tick();
    assert.equal(s.direct.take({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 2 } }), false);
    s.direct.take({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "2" } });
    s.direct.take({ jsonrpc: "2.0", method: "$/cancel_request", params: null });
    assert.equal(s.calls[0]!.signal.aborted, false);
    assert.equal(s.calls[1]!.signal.aborted, true);
    const reason: unknown = s.calls[1]!.signal.reason;
    assert.ok(reason instanceof acp.RequestError && reason.code === -32800);
  });

  test("after the connection closed: open signals abort with its reason, no answer is written, new requests are dropped", async () => {
    const s = setup();
    s.direct.take(req(1));
    await tick();
    const closed = new Error("ACP connection closed");
    s.direct.closeAll(closed);
    assert.equal(s.calls[0]!.signal.reason, closed);
    s.calls[0]!.answer({ action: "cancel" });
    assert.equal(s.direct.take(req(2)), true);
    await tick();
    assert.deepEqual(s.sent, []);
    assert.equal(s.calls.length, 1);
  });

  test("after the connection closed, a request whose abort listener throws does not keep the others open", async () => {
    const s = setup();
    s.direct.take(req(1));
    s.direct.take(req(2));
    await tick();
    s.calls[0]!.signal.addEventListener("abort", () => {
      throw new Error("listener bug");
    });
    assert.throws(() => s.direct.closeAll(new Error("ACP connection closed")), /listener bug/);
    assert.equal(s.calls[0]!.signal.aborted, true);
    assert.equal(s.calls[1]!.signal.aborted, true);
    assert.equal(s.direct.openCount, 0);
  });

  test("while an earlier session/update is on its way, requests wait one turn of the event loop, in order, and later ones queue behind them", () => {
    let ready = false;
    const s = setup({ ready: () => ready });
    s.direct.take(req(1, { n: 1 }));
    s.direct.take(req(2, { n: 2 }));
    assert.equal(s.deferred.length, 1, "one deferred run for the waiting requests");
    ready = true;
    s.direct.take(req(3, { n: 3 })); // ready now, but must not overtake 1 and 2
    assert.equal(s.calls.length, 0);
    s.runDeferred();
    assert.deepEqual(s.calls.map((c) => c.params), [{ n: 1 }, { n: 2 }, { n: 3 }]);
    s.direct.take(req(4, { n: 4 }));
    assert.equal(s.calls.length, 4, "handled at once when nothing is outstanding or waiting");
    ready = false;
    s.direct.take(req(5, { n: 5 }));
    s.runDeferred();
    assert.equal(s.calls.length, 5, "an update that never gets handled costs one turn, not a stall");
  });

  test("a handler that rejects is answered with a JSON-RPC error, as the SDK would", async () => {
    const s = setup({ handle: () => Promise.reject(new Error("bug")) });
    s.direct.take(req(9));
    await tick();
    const [m] = s.sent as Array<{ id: unknown; error: { code: number } }>;
    assert.deepEqual([m?.id, m?.error.code], [9, -32603]);
  });
});
