import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ACP_MAX_JSON_DEPTH, exceedsDepth, guardAcpMessage } from "./acp-guard.js";

const nest = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);

describe("acp-guard", () => {
  test("a message at the depth limit passes untouched; one level deeper is replaced", () => {
    const ok = { jsonrpc: "2.0", id: 1, method: "m", params: nest(ACP_MAX_JSON_DEPTH - 2) };
    assert.deepEqual(guardAcpMessage(ok), { action: "pass" });
    const deep = { jsonrpc: "2.0", id: 1, method: "m", params: nest(ACP_MAX_JSON_DEPTH) };
    assert.equal(guardAcpMessage(deep).action, "replace");
  });

  test("depth counts arrays and objects alike and never recurses", () => {
    assert.equal(exceedsDepth([[[1]]], 3), false);
    assert.equal(exceedsDepth([[[[1]]]], 3), true);
    assert.equal(exceedsDepth(nest(200_000), ACP_MAX_JSON_DEPTH), true);
  });

  test("an invalid id is not kept: the stand-in is an invalid message the SDK answers -32600", () => {
    const r = guardAcpMessage({ jsonrpc: "2.0", id: { x: 1 }, method: "m", params: nest(1000) });
    assert.deepEqual(r.action === "replace" && r.message, { jsonrpc: "2.0", kandev: `message nested deeper than ${ACP_MAX_JSON_DEPTH} levels` });
  });
});
