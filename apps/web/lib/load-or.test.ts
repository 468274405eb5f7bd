import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { loadOr } from "./load-or";

describe("loadOr", () => {
  test("what loads is used", async () => {
    assert.equal(await loadOr(async () => "viewer", "fallback")(), "viewer");
  });

  test("a failed load resolves to the fallback instead of rejecting", async () => {
    assert.equal(await loadOr(() => Promise.reject(new Error("ChunkLoadError")), "fallback")(), "fallback");
  });
});
