import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_QUEUED_BYTES, fallenBehind } from "./hub.js";

test("a socket has fallen behind past the bound, never while two frames' worth fit", () => {
  assert.equal(fallenBehind(0, 100), false);
  assert.equal(fallenBehind(MAX_QUEUED_BYTES, 100), false, "at the bound is still in");
  assert.equal(fallenBehind(MAX_QUEUED_BYTES + 1, 100), true);
  // A long reply sent whole: a reader holding one 10 MB frame is not dropped for the next one.
  const big = 10 * 1024 * 1024;
  assert.equal(fallenBehind(big, big), false);
  assert.equal(fallenBehind(2 * big + 1, big), true);
  assert.equal(fallenBehind(11, 1, 10), true, "the bound can be given");
});
