import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { formatDuration, parseDuration } from "./duration.js";
import { resolveTimeouts, timeoutsProblem } from "./timeouts.js";
import { ProtocolError } from "@kandev/protocol";
import { loadEnv, baseAgentEnv } from "./env.js";

describe("parseDuration", () => {
  test("reads each unit", () => {
    assert.equal(parseDuration("500ms"), 500);
    assert.equal(parseDuration("30s"), 30_000);
    assert.equal(parseDuration("55m"), 3_300_000);
    assert.equal(parseDuration("1h"), 3_600_000);
    assert.equal(parseDuration(" 1.5s "), 1500);
    assert.equal(parseDuration("1h30m"), 5_400_000);
  });
  test("rejects the rest", () => {
    for (const bad of ["", "55", "m", "5 m", "-1s", "0s", "1d", "1h foo", "abc", "1.s"]) {
      assert.equal(parseDuration(bad), null, bad);
    }
  });
  test("formatDuration round-trips common values", () => {
    for (const s of ["55m", "1h", "30s", "500ms"]) assert.equal(formatDuration(parseDuration(s)!), s);
  });
});

describe("timeouts", () => {
  test("answer must be strictly below idle", () => {
    assert.equal(timeoutsProblem({ elicitationAnswerMs: 1, acpIdleMs: 2 }), null);
    assert.match(timeoutsProblem({ elicitationAnswerMs: 2, acpIdleMs: 2 }) ?? "", /strictly below/);
  });
  test("configure overrides get the same check as VALIDATION_ERROR", () => {
    const base = { elicitationAnswerMs: 55 * 60_000, acpIdleMs: 60 * 60_000 };
    assert.deepEqual(resolveTimeouts(base, { elicitation_answer_ms: 1000 }), { elicitationAnswerMs: 1000, acpIdleMs: base.acpIdleMs });
    assert.throws(
      () => resolveTimeouts(base, { acp_idle_ms: 1000 }),
      (e: unknown) => e instanceof ProtocolError && e.code === "VALIDATION_ERROR",
    );
  });
});

describe("loadEnv", () => {
  test("defaults are 55m / 1h", () => {
    assert.deepEqual(loadEnv({}), { timeouts: { elicitationAnswerMs: 3_300_000, acpIdleMs: 3_600_000 } });
  });
  test("reads durations", () => {
    const e = loadEnv({ KANDEV_ELICITATION_ANSWER_TIMEOUT: "30s", KANDEV_ACP_IDLE_TIMEOUT: "1m" });
    assert.deepEqual(e, { timeouts: { elicitationAnswerMs: 30_000, acpIdleMs: 60_000 } });
  });
  test("a bad duration names the variable", () => {
    assert.throws(() => loadEnv({ KANDEV_ACP_IDLE_TIMEOUT: "forever" }), /KANDEV_ACP_IDLE_TIMEOUT="forever" is not a duration/);
  });
  test("answer >= idle is refused", () => {
    assert.throws(() => loadEnv({ KANDEV_ELICITATION_ANSWER_TIMEOUT: "2h" }), /strictly below/);
    assert.throws(() => loadEnv({ KANDEV_ELICITATION_ANSWER_TIMEOUT: "1h", KANDEV_ACP_IDLE_TIMEOUT: "60m" }), /strictly below/);
  });
  test("the agent starts from agentctl's environment (which holds no board secret)", () => {
    assert.deepEqual(baseAgentEnv({ PATH: "/bin", X: undefined }), { PATH: "/bin" });
  });
});
