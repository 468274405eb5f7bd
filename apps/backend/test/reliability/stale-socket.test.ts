import { test } from "node:test";
import assert from "node:assert/strict";
import { STALE_SOCKET_ATTEMPTS, fetchFailureCode, retryOnStaleSocket } from "./stale-socket.js";

/** A fetch failure as undici throws it: TypeError("fetch failed") with the socket's error as cause. */
function fetchFailed(code: string): Error {
  const cause = Object.assign(new Error(code === "ECONNRESET" ? "read ECONNRESET" : "other side closed"), { code });
  return new TypeError("fetch failed", { cause });
}

/** A call that fails with the given errors in turn, then returns "ok". */
function failing(errors: Error[]): { call: () => Promise<string>; calls: () => number } {
  let n = 0;
  return {
    call: async () => {
      const err = errors[n++];
      if (err !== undefined) throw err;
      return "ok";
    },
    calls: () => n,
  };
}

test("a call on a stale socket is tried again, each retry counted; both codes", async () => {
  for (const code of ["UND_ERR_SOCKET", "ECONNRESET"]) {
    const retries = { count: 0 };
    const f = failing([fetchFailed(code), fetchFailed(code)]);
    assert.equal(await retryOnStaleSocket(f.call, retries), "ok");
    assert.equal(f.calls(), 3);
    assert.equal(retries.count, 2);
  }
});

test("the last stale failure is thrown as it came, after STALE_SOCKET_ATTEMPTS calls", async () => {
  const retries = { count: 0 };
  const errors = Array.from({ length: STALE_SOCKET_ATTEMPTS }, () => fetchFailed("ECONNRESET"));
  const f = failing(errors);
  await assert.rejects(retryOnStaleSocket(f.call, retries), (err: unknown) => err === errors.at(-1));
  assert.equal(f.calls(), STALE_SOCKET_ATTEMPTS);
  assert.equal(retries.count, STALE_SOCKET_ATTEMPTS - 1);
});

test("any other failure is thrown at once, not retried", async () => {
  for (const err of [fetchFailed("ECONNREFUSED"), new Error("boom"), new TypeError("fetch failed")]) {
    const retries = { count: 0 };
    const f = failing([err]);
    await assert.rejects(retryOnStaleSocket(f.call, retries), (e: unknown) => e === err);
    assert.equal(f.calls(), 1);
    assert.equal(retries.count, 0);
  }
});

test("fetchFailureCode reads undici's cause, and nothing else", () => {
  assert.equal(fetchFailureCode(fetchFailed("ECONNRESET")), "ECONNRESET");
  assert.equal(fetchFailureCode(new Error("no cause")), undefined);
  assert.equal(fetchFailureCode(null), undefined);
  assert.equal(fetchFailureCode({ cause: { code: 7 } }), undefined);
});
