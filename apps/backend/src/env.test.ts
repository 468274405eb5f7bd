import { describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { loadEnv, parseDurationMs } from "./env.js";

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
