import { describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { loadEnv, parseDurationMs, resolveAuth } from "./env.js";

describe("loadEnv", () => {
  test("defaults", () => {
    const env = loadEnv({}, "/srv/kandev");
    assert.equal(env.host, "127.0.0.1");
    assert.equal(env.port, 38429);
    assert.equal(env.dbPath, path.resolve("/srv/kandev", "data/kandev.db"));
    assert.equal(env.profile, "prod");
    assert.equal(env.serveWeb, true);
    assert.deepEqual(env.flagEnv, {});
    assert.deepEqual(env.allowedOrigins, []);
    assert.deepEqual(env.timeouts, {});
    assert.ok(env.webDir.endsWith(path.join("apps", "web")));
  });

  test("reads every variable", () => {
    const env = loadEnv(
      {
        KANDEV_HOST: "0.0.0.0",
        KANDEV_PORT: "0",
        KANDEV_DB_PATH: "x/y.db",
        KANDEV_PROFILE: "e2e",
        KANDEV_FEATURES_ACP_ELICITATION: "true",
        KANDEV_ALLOWED_ORIGINS: " http://a:1 ,http://b ,",
        KANDEV_ELICITATION_ANSWER_TIMEOUT: "55m",
        KANDEV_ACP_IDLE_TIMEOUT: "1h",
        KANDEV_WEB_DIR: "web",
        KANDEV_SERVE_WEB: "false",
      },
      "/w",
    );
    assert.equal(env.host, "0.0.0.0");
    assert.equal(env.port, 0);
    assert.equal(env.dbPath, "/w/x/y.db");
    assert.equal(env.profile, "e2e");
    assert.deepEqual(env.flagEnv, { "features.acpElicitation": true });
    assert.deepEqual(env.allowedOrigins, ["http://a:1", "http://b"]);
    assert.deepEqual(env.timeouts, { elicitationAnswerMs: 3_300_000, acpIdleMs: 3_600_000 });
    assert.equal(env.webDir, "/w/web");
    assert.equal(env.serveWeb, false);
  });

  test("the answer timeout must be below the idle timeout", () => {
    assert.throws(
      () => loadEnv({ KANDEV_ELICITATION_ANSWER_TIMEOUT: "1h", KANDEV_ACP_IDLE_TIMEOUT: "60m" }, "/w"),
      /KANDEV_ELICITATION_ANSWER_TIMEOUT must be below KANDEV_ACP_IDLE_TIMEOUT/,
    );
  });

  test("empty variables count as unset", () => {
    const env = loadEnv({ KANDEV_PORT: "", KANDEV_FEATURES_ACP_ELICITATION: " " }, "/w");
    assert.equal(env.port, 38429);
    assert.deepEqual(env.flagEnv, {});
  });

  test("bad values stop the start and name every bad variable", () => {
    assert.throws(
      () =>
        loadEnv({ KANDEV_PORT: "70000", KANDEV_PROFILE: "staging", KANDEV_FEATURES_ACP_ELICITATION: "maybe", KANDEV_ACP_IDLE_TIMEOUT: "10" }, "/w"),
      (err: Error) =>
        ["KANDEV_PORT", "KANDEV_PROFILE", "KANDEV_FEATURES_ACP_ELICITATION", "KANDEV_ACP_IDLE_TIMEOUT"].every((v) => err.message.includes(v)),
    );
  });
});

describe("parseDurationMs", () => {
  test("Go-style durations", () => {
    assert.equal(parseDurationMs("55m"), 3_300_000);
    assert.equal(parseDurationMs("1h30m"), 5_400_000);
    assert.equal(parseDurationMs("500ms"), 500);
    assert.equal(parseDurationMs("1.5s"), 1500);
  });
  test("malformed or zero durations are rejected", () => {
    for (const bad of ["", "10", "m", "-5s", "5 m", "0s", "1d"]) assert.equal(parseDurationMs(bad), undefined, bad);
  });
});

describe("KANDEV_SESSION_IDLE_TIMEOUT", () => {
  test("defaults to 15 minutes", () => assert.equal(loadEnv({}, "/w").sessionIdleTimeoutMs, 15 * 60_000));
  test("takes a duration in ms, s, m or h, and 0 for never", () => {
    const idle = (v: string) => loadEnv({ KANDEV_SESSION_IDLE_TIMEOUT: v }, "/w").sessionIdleTimeoutMs;
    assert.equal(idle("300ms"), 300);
    assert.equal(idle("30s"), 30_000);
    assert.equal(idle("15m"), 15 * 60_000);
    assert.equal(idle("1h"), 3_600_000);
    assert.equal(idle("0"), 0);
    assert.equal(idle("0s"), 0);
  });
  test("anything else stops the start naming the variable", () => {
    for (const bad of ["soon", "15", "-1m", "1d"]) {
      assert.throws(() => loadEnv({ KANDEV_SESSION_IDLE_TIMEOUT: bad }, "/w"), /KANDEV_SESSION_IDLE_TIMEOUT/);
    }
  });
});

describe("resolveAuth (KANDEV_AUTH against KANDEV_HOST)", () => {
  test("unset: off on loopback, on beyond it", () => {
    for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
      assert.deepEqual(resolveAuth({ host, auth: undefined }), { enabled: false }, host);
    for (const host of ["0.0.0.0", "::", "192.168.1.5", "board.example"])
      assert.deepEqual(resolveAuth({ host, auth: undefined }), { enabled: true }, host);
  });
  test("on is on anywhere; off is off on loopback", () => {
    assert.deepEqual(resolveAuth({ host: "127.0.0.1", auth: "on" }), { enabled: true });
    assert.deepEqual(resolveAuth({ host: "0.0.0.0", auth: "on" }), { enabled: true });
    assert.deepEqual(resolveAuth({ host: "127.0.0.1", auth: "off" }), { enabled: false });
  });
  test("off beyond loopback is refused, saying why and how", () => {
    const r = resolveAuth({ host: "0.0.0.0", auth: "off" });
    assert.ok("refused" in r);
    assert.match(r.refused, /KANDEV_AUTH=on/);
    assert.match(r.refused, /run commands/);
    assert.match(r.refused, /first visit/);
  });
  test("loadEnv reads KANDEV_AUTH and refuses off beyond loopback", () => {
    assert.equal(loadEnv({}).auth, false);
    assert.equal(loadEnv({ KANDEV_HOST: "0.0.0.0" }).auth, true);
    assert.equal(loadEnv({ KANDEV_AUTH: "ON" }).auth, true);
    assert.throws(() => loadEnv({ KANDEV_HOST: "0.0.0.0", KANDEV_AUTH: "off" }), /refusing to start[\s\S]*KANDEV_AUTH=on/);
    assert.throws(() => loadEnv({ KANDEV_AUTH: "maybe" }), /KANDEV_AUTH/);
  });
});
