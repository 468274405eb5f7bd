import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { agentEnvFrom, isWithheldFromAgents, looksSecret } from "./agent-env.js";
import { baseAgentEnv } from "./env.js";

describe("the board's environment as an agent sees it", () => {
  test("the board's own settings (KANDEV_*, any case) are withheld", () => {
    const env = agentEnvFrom({ KANDEV_DB_PATH: "/data/kandev.db", KANDEV_SOMETHING: "x", kandev_lower: "y", PATH: "/usr/bin" });
    assert.deepEqual(env, { PATH: "/usr/bin" });
  });

  test("credential-looking names are withheld: keys, tokens, secrets, passwords, private keys", () => {
    for (const name of [
      "ANTHROPIC_API_KEY",
      "GITHUB_TOKEN",
      "NPM_TOKEN",
      "AWS_SECRET_ACCESS_KEY",
      "DB_PASSWORD",
      "PGPASSWD",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "SSH_PRIVATE",
      "my_api_key",
    ]) {
      assert.equal(isWithheldFromAgents(name, "value"), true, name);
    }
  });

  test("credential-looking values are withheld whatever their name", () => {
    const values = [
      `ghp_${"a".repeat(36)}`,
      `github_pat_${"B1_".repeat(10)}`,
      `glpat-${"x".repeat(20)}`,
      "xoxb-1234567890-abcdef",
      `npm_${"Z9".repeat(18)}`,
      "AKIAABCDEFGHIJKLMNOP",
      `sk-ant-api03-${"q".repeat(30)}`,
      "https://user:hunter2@proxy.example:8080",
    ];
    for (const value of values) assert.equal(looksSecret("HARMLESS_NAME", value), true, value);
  });

  test("what an agent needs to run stays: PATH, HOME, locale, proxies without a password, the ssh-agent socket", () => {
    // Values the filter only reads, never opens: made here, not a machine's paths.
    const home = path.join(os.tmpdir(), "kandev-home");
    const sshSocket = path.join(os.tmpdir(), "ssh-test", "agent.1");
    const board = {
      PATH: "/usr/local/bin:/usr/bin",
      HOME: home,
      LANG: "C.UTF-8",
      HTTPS_PROXY: "http://proxy.example:3128",
      SSH_AUTH_SOCK: sshSocket,
      MONKEY_BUSINESS: undefined,
      SKETCH: "sk-short",
    };
    assert.deepEqual(agentEnvFrom(board), {
      PATH: "/usr/local/bin:/usr/bin",
      HOME: home,
      LANG: "C.UTF-8",
      HTTPS_PROXY: "http://proxy.example:3128",
      SSH_AUTH_SOCK: sshSocket,
      SKETCH: "sk-short",
    });
  });

  test("agentctl's base agent env applies the same rule to its own environment", () => {
    assert.deepEqual(baseAgentEnv({ KANDEV_ACP_IDLE_TIMEOUT: "1h", OPENAI_API_KEY: "sk-x", TERM: "dumb" }), { TERM: "dumb" });
  });
});
