import { test } from "node:test";
import assert from "node:assert/strict";
import { bearerToken, tokenMatches } from "./token.js";
import { parseArgs } from "./args.js";

test("bearerToken reads only a Bearer header", () => {
  assert.equal(bearerToken("Bearer abc"), "abc");
  assert.equal(bearerToken("bearer abc"), "abc");
  assert.equal(bearerToken("Basic abc"), null);
  assert.equal(bearerToken("Bearer "), null);
  assert.equal(bearerToken(undefined), null);
  assert.equal(bearerToken(["Bearer abc"]), null);
});

test("tokenMatches compares exactly, whatever the lengths", () => {
  assert.equal(tokenMatches("secret", "secret"), true);
  assert.equal(tokenMatches("secret", "secreT"), false);
  assert.equal(tokenMatches("secret", "secret-longer"), false);
  assert.equal(tokenMatches("secret", ""), false);
  assert.equal(tokenMatches("secret", null), false);
});

test("parseArgs reads port, host, token and defaults the host", () => {
  assert.deepEqual(parseArgs(["--port", "0"]), { port: 0, host: "127.0.0.1", token: undefined, watchStdin: true });
  assert.deepEqual(parseArgs(["--port=8080", "--host", "0.0.0.0", "--token", "t", "--no-stdin-watch"]), {
    port: 8080,
    host: "0.0.0.0",
    token: "t",
    watchStdin: false,
  });
});

test("parseArgs refuses bad input with a clear message", () => {
  assert.throws(() => parseArgs([]), /--port is required/);
  assert.throws(() => parseArgs(["--port", "x"]), /--port must be an integer/);
  assert.throws(() => parseArgs(["--port", "70000"]), /--port must be an integer/);
  assert.throws(() => parseArgs(["--port", "1", "--token"]), /--token needs a value/);
  assert.throws(() => parseArgs(["--port", "1", "--what"]), /unknown argument "--what"/);
});
