import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FailureLimiter, LOGIN_LIMIT } from "./rate-limit.js";

describe("failed sign-in limit", () => {
  test("5 failures in 15 minutes block the key until the oldest leaves the window", () => {
    assert.deepEqual(LOGIN_LIMIT, { max: 5, windowMs: 15 * 60_000 });
    const l = new FailureLimiter();
    const t0 = 1_000_000;
    for (let i = 0; i < 4; i++) l.fail(["user:bob"], t0 + i * 1000);
    assert.equal(l.retryAfterSeconds(["user:bob"], t0 + 5000), 0);
    l.fail(["user:bob"], t0 + 5000);
    assert.equal(l.retryAfterSeconds(["user:bob"], t0 + 5000), 15 * 60 - 5, "until the first failure is 15 minutes old");
    assert.equal(l.retryAfterSeconds(["user:bob"], t0 + 15 * 60_000 - 1000), 1);
    // The first failure left the window: four remain, one more try is allowed.
    assert.equal(l.retryAfterSeconds(["user:bob"], t0 + 15 * 60_000 + 1), 0);
  });

  test("any blocked key blocks (a name or an address); clear resets one key only", () => {
    const l = new FailureLimiter({ max: 2, windowMs: 60_000 });
    l.fail(["user:a", "addr:1.2.3.4"], 0);
    l.fail(["user:b", "addr:1.2.3.4"], 10);
    assert.ok(l.retryAfterSeconds(["user:c", "addr:1.2.3.4"], 20) > 0, "the address is blocked whatever the name");
    assert.equal(l.retryAfterSeconds(["user:a", "addr:5.6.7.8"], 20), 0);
    l.fail(["user:a"], 30);
    assert.ok(l.retryAfterSeconds(["user:a"], 40) > 0);
    l.clear("user:a");
    assert.equal(l.retryAfterSeconds(["user:a"], 40), 0);
    assert.ok(l.retryAfterSeconds(["addr:1.2.3.4"], 40) > 0);
  });
});
