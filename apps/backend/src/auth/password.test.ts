import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SCRYPT_PARAMS, burnPasswordCheck, hashPassword, verifyPassword } from "./password.js";
import { TOKEN_PREFIX, newApiToken, newSessionSecret, sha256 } from "./secrets.js";

describe("password hashing", () => {
  test("scrypt with memory-hard defaults; verify accepts the password and nothing else", async () => {
    assert.ok(SCRYPT_PARAMS.N * SCRYPT_PARAMS.r * 128 >= 32 * 1024 * 1024, "at least 32 MiB per hash");
    const stored = await hashPassword("correct horse battery");
    assert.match(stored, /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    assert.ok(!stored.includes("correct horse"));
    assert.equal(await verifyPassword("correct horse battery", stored), true);
    assert.equal(await verifyPassword("correct horse batterY", stored), false);
    assert.equal(await verifyPassword("", stored), false);
  });

  test("two hashes of one password differ (salted); old parameters in a hash still verify", async () => {
    const a = await hashPassword("same password", { N: 1024, r: 8, p: 1 });
    const b = await hashPassword("same password", { N: 1024, r: 8, p: 1 });
    assert.notEqual(a, b);
    assert.equal(await verifyPassword("same password", a), true);
  });

  test("a malformed hash never verifies", async () => {
    for (const bad of ["", "plain", "scrypt$1$2$3$$", "bcrypt$1$2$3$a$b", "scrypt$x$8$1$AAAA$AAAA"])
      assert.equal(await verifyPassword("x", bad), false, bad);
    assert.equal(await burnPasswordCheck("anything"), false);
  });
});

describe("credentials", () => {
  test("tokens are kdv_ + 256 random bits; sessions 256 bits; stored as sha-256 hex", () => {
    const t = newApiToken();
    assert.ok(t.startsWith(TOKEN_PREFIX));
    assert.equal(Buffer.from(t.slice(TOKEN_PREFIX.length), "base64url").length, 32);
    assert.notEqual(newApiToken(), t);
    assert.equal(Buffer.from(newSessionSecret(), "base64url").length, 32);
    assert.match(sha256(t), /^[0-9a-f]{64}$/);
  });
});
