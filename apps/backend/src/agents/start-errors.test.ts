import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { FileCheck } from "./executable.js";
import {
  checkAgentCommand,
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
