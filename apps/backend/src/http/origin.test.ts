import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { isHostAllowed, isOriginAllowed, isStateChanging } from "./origin.js";

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

describe("host check (DNS rebinding)", () => {
  test("IP literals, localhost and *.localhost are always allowed, with or without a port", () => {
    for (const host of [
      "127.0.0.1:38429",
      "127.0.0.1",
      "10.1.2.3:80",
      "[::1]:38429",
      "[::1]",
      "localhost:38429",
      "LOCALHOST",
      "app.localhost:3000",
    ]) {
      assert.equal(isHostAllowed(host, "127.0.0.1", []), true, host);
    }
  });
  test("any other name is refused unless it is the listening host or an allowed origin's host", () => {
    assert.equal(isHostAllowed("evil.example:38429", "127.0.0.1", []), false);
    assert.equal(isHostAllowed("localhost.evil.example", "127.0.0.1", []), false);
    assert.equal(isHostAllowed("mybox.lan:38429", "mybox.lan", []), true);
    assert.equal(isHostAllowed("board.example:443", "0.0.0.0", ["https://board.example"]), true);
    assert.equal(isHostAllowed("other.example", "0.0.0.0", ["https://board.example", "not a url"]), false);
  });
  test("no Host (not a browser) is allowed; a malformed one is not", () => {
    assert.equal(isHostAllowed(undefined, "127.0.0.1", []), true);
    for (const host of ["", "a b", "evil.example@127.0.0.1", "127.0.0.1/x", "[::1", "x:123456"])
      assert.equal(isHostAllowed(host, "127.0.0.1", []), false, host);
  });
});
