import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { authView, isUnauthorized, signInProblem } from "./auth-view";

const bob = { id: "u1", username: "bob", role: "operator" as const };
const on = { enabled: true, setup_required: false };

describe("authView", () => {
  test("waits for health before deciding anything", () => {
    assert.deepEqual(authView(undefined, { kind: "unknown" }, false), { kind: "loading" });
  });

  test("auth off (or a board without the field) shows the app as it always was, even after a 401", () => {
    assert.deepEqual(authView({ enabled: false, setup_required: false }, { kind: "unknown" }, true), { kind: "open" });
    assert.deepEqual(authView(null, { kind: "signed_out" }, false), { kind: "open" });
  });

  test("a board without users shows the first-run form", () => {
    assert.deepEqual(authView({ enabled: true, setup_required: true }, { kind: "signed_out" }, false), { kind: "setup" });
  });

  test("a 401 from /auth/me or from any other request shows the login form", () => {
    assert.deepEqual(authView(on, { kind: "signed_out" }, false), { kind: "login" });
    assert.deepEqual(authView(on, { kind: "user", user: bob }, true), { kind: "login" });
  });

  test("a known user is signed in; an unknown one is still loading", () => {
    assert.deepEqual(authView(on, { kind: "user", user: bob }, false), { kind: "signed_in", user: bob });
    assert.deepEqual(authView(on, { kind: "unknown" }, false), { kind: "loading" });
  });
});

describe("isUnauthorized / signInProblem", () => {
  test("only a 401 is unauthorized", () => {
    assert.equal(isUnauthorized({ status: 401 }), true);
    assert.equal(isUnauthorized({ status: 403 }), false);
    assert.equal(isUnauthorized(new Error("x")), false);
    assert.equal(isUnauthorized(null), false);
  });

  test("a wrong name or password gets one message; a rate limit says how long to wait", () => {
    assert.deepEqual(signInProblem({ status: 401 }), { key: "auth.wrongCredentials" });
    assert.deepEqual(signInProblem({ status: 429, retryAfterSeconds: 30 }), { key: "auth.rateLimited", values: { seconds: 30 } });
    assert.deepEqual(signInProblem({ status: 429, retryAfterSeconds: null }), { key: "auth.rateLimited", values: { seconds: 60 } });
    assert.deepEqual(signInProblem({ status: 500 }), { key: "auth.failed" });
    assert.equal(signInProblem(null), null);
  });
});
