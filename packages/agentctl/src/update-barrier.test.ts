import { test } from "node:test";
import assert from "node:assert/strict";
import { UpdateBarrier } from "./update-barrier.js";

test("drain resolves at once when everything seen was handled", async () => {
  const b = new UpdateBarrier();
  b.seen();
  b.handled();
  await b.drain();
});

test("drain waits for updates seen before the call, not after", async () => {
  const b = new UpdateBarrier(60_000);
  const order: string[] = [];
  b.seen();
  b.seen();
  const drained = b.drain().then(() => order.push("drained"));
  b.seen(); // arrives after the response: not waited for
  b.handled();
  await Promise.resolve();
  order.push("one handled");
  b.handled();
  await drained;
  assert.deepEqual(order, ["one handled", "drained"]);
});

test("drain gives up after maxWaitMs when an update is never handled", async () => {
  const b = new UpdateBarrier(20);
  b.seen();
  const t0 = Date.now();
  await b.drain();
  assert.ok(Date.now() - t0 >= 15);
});
