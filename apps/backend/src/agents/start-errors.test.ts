import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { FileCheck } from "./executable.js";
import {
  agentCommandFailure,
  checkAgentCommand,
  exitedDuringStartFailure,
  exitedFailure,
  initializeTimeoutFailure,
  spawnRefusedFailure,
  startFailedFailure,
  cwdProblemReason,
  exitedDuringStartReason,
  initializeTimeoutReason,
  lastLine,
  spawnRefusedReason,
} from "./start-errors.js";

const none: FileCheck = () => "missing";

describe("checkAgentCommand", () => {
  test("present -> null", () => {
    assert.equal(checkAgentCommand(["agent"], { pathEnv: "/bin", cwd: "/", check: (f) => (f === "/bin/agent" ? "ok" : "missing") }), null);
  });

  test("a known agent missing from PATH: names the command and how to install it", () => {
    const reason = checkAgentCommand(["claude-agent-acp"], { pathEnv: "/bin", cwd: "/", check: none })!;
    assert.equal(
      reason,
      'the agent command "claude-agent-acp" was not found on PATH. Install it: npm install -g @agentclientprotocol/claude-agent-acp (or npm install @agentclientprotocol/claude-agent-acp in the board\'s folder)',
    );
  });

  test("an unknown agent missing at a path: names it and says to check the profile", () => {
    assert.equal(
      checkAgentCommand(["/opt/agent", "--acp"], { pathEnv: "/bin", cwd: "/", check: none }),
      'the agent command "/opt/agent" was not found. Check the profile\'s command, or install the agent so the board can run it.',
    );
  });

  test("a working directory that is missing or a file is named before the command (spawn would call it a missing command)", () => {
    const found: FileCheck = () => "ok";
    assert.equal(
      checkAgentCommand(["node"], { pathEnv: "/bin", cwd: "/gone", check: found, checkDir: () => "missing" }),
      "the agent's working directory \"/gone\" does not exist. Change the profile's working directory (Settings -> Agent profiles) or create the folder.",
    );
    assert.match(checkAgentCommand(["node"], { pathEnv: "/bin", cwd: "/etc/hosts", check: found })!, /"\/etc\/hosts" is not a folder\./);
    assert.equal(cwdProblemReason("/tmp", "ok"), null);
  });

  test("not executable is said as such", () => {
    const onPath = checkAgentCommand(["gemini"], { pathEnv: "/bin", cwd: "/", check: () => "not_executable" })!;
    assert.match(
      onPath,
      /^the agent command "gemini" is not executable \(found on PATH, but without execute permission\)\. Install it: npm install -g @google\/gemini-cli$/,
    );
    assert.match(
      checkAgentCommand(["./agent"], { pathEnv: "", cwd: "/w", check: () => "not_executable", checkDir: () => "ok" })!,
      /^the agent command "\.\/agent" is not executable\. Check/,
    );
  });
});

describe("spawnRefusedReason (agentctl's own refusal)", () => {
  test("maps the errno to words and keeps the install hint", () => {
    assert.match(
      spawnRefusedReason(["gemini"], 'cannot start agent command "gemini": spawn gemini ENOENT'),
      /^the agent command "gemini" was not found\. Install it: npm install -g @google\/gemini-cli$/,
    );
    assert.match(
      spawnRefusedReason(["/x/a"], 'cannot start agent command "/x/a": spawn /x/a EACCES'),
      /^the agent command "\/x\/a" is not executable\./,
    );
    assert.match(
      spawnRefusedReason(["a"], 'cannot start agent command "a": spawn a E2BIG'),
      /could not be started \(cannot start agent command "a": spawn a E2BIG\)/,
    );
  });
});

describe("exitedDuringStartReason", () => {
  test("exit code, phase and the last stderr line", () => {
    assert.equal(
      exitedDuringStartReason("initialize", { code: 7, signal: null }, "loading\nno api key\n\n"),
      "the agent exited before answering ACP initialize (code 7): no api key",
    );
    assert.equal(exitedDuringStartReason("configure", { code: null, signal: "SIGKILL" }, ""), "the agent exited while starting (signal SIGKILL)");
    assert.equal(exitedDuringStartReason("session", { code: 1, signal: null }, "x"), "the agent exited while opening its ACP session (code 1): x");
  });

  test("a very long last line is cut", () => {
    assert.equal(lastLine("y".repeat(1000))!.length, 301);
    assert.equal(lastLine("  \n \n"), undefined);
  });
});

describe("initializeTimeoutReason", () => {
  test("says initialize timed out, with a readable duration", () => {
    assert.match(initializeTimeoutReason(300_000), /^the agent did not answer ACP initialize within 5 min;/);
    assert.match(initializeTimeoutReason(1500), /within 1500 ms/);
    assert.match(initializeTimeoutReason(2000), /within 2 s/);
  });
});

describe("start failures as codes (a client words them in the operator's language)", () => {
  const found: FileCheck = () => "ok";
  test("the command and working directory checks give the code and its values beside the English reason", () => {
    const missing = agentCommandFailure(["gemini"], { pathEnv: "/bin", cwd: "/", check: none, checkDir: () => "ok" })!;
    assert.deepEqual(missing.failure, { code: "command_not_found", params: { command: "gemini", hint: "npm install -g @google/gemini-cli" } });
    assert.equal(missing.reason, checkAgentCommand(["gemini"], { pathEnv: "/bin", cwd: "/", check: none, checkDir: () => "ok" }));
    assert.deepEqual(agentCommandFailure(["./a"], { pathEnv: "", cwd: "/w", check: () => "not_executable", checkDir: () => "ok" })!.failure, {
      code: "command_not_executable",
      params: { command: "./a" },
    });
    assert.deepEqual(agentCommandFailure(["node"], { pathEnv: "/bin", cwd: "/gone", check: found, checkDir: () => "missing" })!.failure, {
      code: "cwd_missing",
      params: { cwd: "/gone" },
    });
    assert.equal(
      agentCommandFailure(["node"], { pathEnv: "/bin", cwd: "/f", check: found, checkDir: () => "not_directory" })!.failure.code,
      "cwd_not_directory",
    );
    assert.equal(agentCommandFailure(["node"], { pathEnv: "/bin", cwd: "/", check: found, checkDir: () => "ok" }), null);
  });

  test("agentctl's refusals, exits, timeouts and anything else", () => {
    assert.equal(spawnRefusedFailure(["a"], "spawn a ENOENT").failure.code, "command_not_found");
    assert.equal(spawnRefusedFailure(["a"], "spawn a EPERM").failure.code, "command_not_executable");
    assert.deepEqual(spawnRefusedFailure(["a"], "spawn a E2BIG").failure, {
      code: "command_not_startable",
      params: { command: "a", detail: "spawn a E2BIG" },
    });
    assert.deepEqual(exitedDuringStartFailure("initialize", { code: 7, signal: null }, "no api key\n").failure, {
      code: "exited_during_start",
      params: { phase: "initialize", exit_code: "7", last: "no api key" },
    });
    assert.deepEqual(exitedFailure({ code: null, signal: "SIGKILL" }), {
      reason: "the agent exited unexpectedly (signal SIGKILL)",
      failure: { code: "exited", params: { signal: "SIGKILL" } },
    });
    assert.deepEqual(initializeTimeoutFailure(300_000).failure, { code: "initialize_timeout", params: { seconds: "300" } });
    assert.deepEqual(startFailedFailure("boom"), {
      reason: "could not start the agent: boom",
      failure: { code: "start_failed", params: { detail: "boom" } },
    });
  });
});
