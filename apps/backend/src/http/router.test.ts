import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { HttpError } from "./errors.js";
import { Router } from "./router.js";

const ok = () => ({ status: 200 });

describe("Router", () => {
  const router = new Router()
    .add("GET", "/api/v1/tasks", ok)
    .add("POST", "/api/v1/tasks", ok)
    .add("GET", "/api/v1/tasks/:id", ok)
    .add("POST", "/api/v1/sessions/:id/permissions/:pendingId/respond", ok);

  test("matches method and literal path", () => {
    assert.equal(router.match("GET", "/api/v1/tasks").kind, "found");
    assert.equal(router.match("post", "/api/v1/tasks").kind, "found");
  });

  test("captures and decodes parameters", () => {
    const m = router.match("POST", "/api/v1/sessions/s%201/permissions/p%2F2/respond");
    assert.equal(m.kind, "found");
    assert.deepEqual(m.kind === "found" && m.params, { id: "s 1", pendingId: "p/2" });
  });

  test("tolerates a trailing slash", () => {
    assert.equal(router.match("GET", "/api/v1/tasks/").kind, "found");
  });

  test("a known path with another method is method_not_allowed with the allowed list", () => {
    const m = router.match("DELETE", "/api/v1/tasks");
    assert.deepEqual(m, { kind: "method_not_allowed", allowed: ["GET", "POST"] });
  });

  test("unknown paths and extra segments are not_found", () => {
    assert.equal(router.match("GET", "/api/v1/nope").kind, "not_found");
    assert.equal(router.match("GET", "/api/v1/tasks/a/b").kind, "not_found");
  });

  test("a malformed percent-encoding is a 400 BAD_REQUEST", () => {
    assert.throws(
      () => router.match("GET", "/api/v1/tasks/%E0%A4%A"),
      (err: unknown) => err instanceof HttpError && err.status === 400 && err.code === "BAD_REQUEST",
    );
  });
});
