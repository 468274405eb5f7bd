import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { reconnectDelay } from "./backoff";

describe("reconnectDelay", () => {
  const opts = { initialMs: 100, maxMs: 1_000 };

  test("doubles per attempt", () => {
    assert.equal(
      reconnectDelay(0, opts, () => 0.999999),
      100,
    );
    assert.equal(
      reconnectDelay(1, opts, () => 0.999999),
      200,
    );
    assert.equal(
      reconnectDelay(2, opts, () => 0.999999),
      400,
    );
  });

  test("is capped at maxMs, even for huge attempt counts", () => {
    assert.equal(
      reconnectDelay(4, opts, () => 0.999999),
      1_000,
    );
    assert.equal(
      reconnectDelay(10_000, opts, () => 0.999999),
      1_000,
    );
  });

  test("jitter keeps at least half the step", () => {
    assert.equal(
      reconnectDelay(0, opts, () => 0),
      50,
    );
    assert.equal(
      reconnectDelay(9, opts, () => 0),
      500,
    );
  });
});
