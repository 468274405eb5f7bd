import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { isOriginAllowed, isStateChanging } from "./origin.js";

describe("origin check", () => {
  test("absent Origin (curl, scripts) is allowed", () => {
    assert.equal(isOriginAllowed(undefined, "127.0.0.1:38429", []), true);
  });
  test("the board's own origin is allowed, case and default port normalised", () => {
    assert.equal(isOriginAllowed("http://127.0.0.1:38429", "127.0.0.1:38429", []), true);
    assert.equal(isOriginAllowed("HTTP://LOCALHOST", "localhost:80", []), true);
  });
  test("a foreign origin is refused", () => {
    assert.equal(isOriginAllowed("http://evil.example", "127.0.0.1:38429", []), false);
    assert.equal(isOriginAllowed("http://127.0.0.1:9999", "127.0.0.1:38429", []), false);
  });
  test("https on the same host:port is a different origin", () => {
    assert.equal(isOriginAllowed("https://127.0.0.1:38429", "127.0.0.1:38429", []), false);
  });
  test("listed origins are allowed", () => {
    assert.equal(isOriginAllowed("http://localhost:3000", "127.0.0.1:38429", ["http://localhost:3000"]), true);
    assert.equal(isOriginAllowed("http://localhost:3000/", "127.0.0.1:38429", ["http://LOCALHOST:3000"]), true);
  });
  test("opaque and malformed origins are refused", () => {
    assert.equal(isOriginAllowed("null", "127.0.0.1:38429", ["null"]), false);
    assert.equal(isOriginAllowed("not a url", "127.0.0.1:38429", []), false);
    assert.equal(isOriginAllowed("file://x", "x", []), false);
  });
  test("a missing Host never matches", () => {
    assert.equal(isOriginAllowed("http://undefined", undefined, []), false);
  });
  test("only GET/HEAD/OPTIONS are safe", () => {
    for (const m of ["GET", "head", "OPTIONS"]) assert.equal(isStateChanging(m), false);
    for (const m of ["POST", "PATCH", "PUT", "DELETE"]) assert.equal(isStateChanging(m), true);
  });
});
