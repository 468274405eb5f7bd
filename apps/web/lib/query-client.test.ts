import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ApiRequestError } from "./api";
import { createQueryClient } from "./query-client";

const failWith = (status: number) => () => Promise.reject(new ApiRequestError(status, status === 401 ? "UNAUTHORIZED" : "FORBIDDEN", "no"));

describe("createQueryClient: the one 401 hook (issue 34)", () => {
  test("a query answered 401 calls onUnauthorized once; a 403 does not", async () => {
    let calls = 0;
    const client = createQueryClient({ onUnauthorized: () => (calls += 1) });
    await assert.rejects(client.fetchQuery({ queryKey: ["a"], queryFn: failWith(401) }));
    assert.equal(calls, 1);
    await assert.rejects(client.fetchQuery({ queryKey: ["b"], queryFn: failWith(403) }));
    assert.equal(calls, 1);
  });

  test("a mutation answered 401 calls it too, unless it expects a 401 as an answer (a wrong current password)", async () => {
    let calls = 0;
    const client = createQueryClient({ onUnauthorized: () => (calls += 1) });
    const cache = client.getMutationCache();
    await assert.rejects(cache.build(client, { mutationFn: failWith(401) }).execute(undefined));
    assert.equal(calls, 1);
    await assert.rejects(cache.build(client, { mutationFn: failWith(401), meta: { expectsUnauthorized: true } }).execute(undefined));
    assert.equal(calls, 1);
  });
});
