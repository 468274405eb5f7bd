import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SESSION_TTL_MS, bearerToken, clearedSessionCookie, isSecureRequest, sessionCookie, sessionFromCookieHeader } from "./cookie.js";

describe("session cookie", () => {
  test("HttpOnly, SameSite=Strict, Path=/, 7 days; Secure only when asked", () => {
    const plain = sessionCookie("abc", false);
    assert.equal(plain, `kandev_session=abc; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_MS / 1000}`);
    assert.equal(SESSION_TTL_MS, 7 * 24 * 3600 * 1000);
    assert.match(sessionCookie("abc", true), /; Secure$/);
    assert.equal(clearedSessionCookie(false), "kandev_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
  });

  test("Secure over TLS, or behind a loopback proxy that says https; never on a remote's say-so", () => {
    assert.equal(isSecureRequest({ encrypted: true, forwardedProto: undefined, remoteAddress: "10.0.0.2" }), true);
    assert.equal(isSecureRequest({ encrypted: false, forwardedProto: "https", remoteAddress: "127.0.0.1" }), true);
    assert.equal(isSecureRequest({ encrypted: false, forwardedProto: "https", remoteAddress: "::ffff:127.0.0.1" }), true);
    assert.equal(isSecureRequest({ encrypted: false, forwardedProto: "https, http", remoteAddress: "::1" }), true);
    assert.equal(isSecureRequest({ encrypted: false, forwardedProto: "https", remoteAddress: "10.0.0.2" }), false);
    assert.equal(isSecureRequest({ encrypted: false, forwardedProto: "http", remoteAddress: "127.0.0.1" }), false);
    assert.equal(isSecureRequest({ encrypted: false, forwardedProto: undefined, remoteAddress: "127.0.0.1" }), false);
  });

  test("reads the session from a Cookie header and a bearer token from Authorization", () => {
    assert.equal(sessionFromCookieHeader("a=1; kandev_session=xyz; b=2"), "xyz");
    assert.equal(sessionFromCookieHeader("kandev_session="), undefined);
    assert.equal(sessionFromCookieHeader("other=1"), undefined);
    assert.equal(sessionFromCookieHeader(undefined), undefined);
    assert.equal(bearerToken("Bearer kdv_abc"), "kdv_abc");
    assert.equal(bearerToken("bearer kdv_abc "), "kdv_abc");
    assert.equal(bearerToken("Basic Zm9v"), undefined);
    assert.equal(bearerToken(undefined), undefined);
  });
});
