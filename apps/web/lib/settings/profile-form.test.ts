import assert from "node:assert/strict";
import { test } from "node:test";
import { parseCommand, parseEnv, profileBody } from "./profile-form";

test("parseCommand keeps one argument per non-empty line, inner spaces intact", () => {
  assert.deepEqual(parseCommand("node\n  /opt/my agent/cli.js \n\n--flag=a b\r\n"), ["node", "/opt/my agent/cli.js", "--flag=a b"]);
  assert.deepEqual(parseCommand("  \n"), []);
});

test("parseEnv reads KEY=value lines, skips blanks and comments, and names the first bad line", () => {
  assert.deepEqual(parseEnv("A=1\n# note\n\nB_2=x=y\nEMPTY="), { env: { A: "1", B_2: "x=y", EMPTY: "" } });
  assert.deepEqual(parseEnv("A=1\nnot a pair\n"), { badLine: 2 });
  assert.deepEqual(parseEnv("=value"), { badLine: 1 });
  assert.deepEqual(parseEnv("1A=x"), { badLine: 1 });
});

test("profileBody builds the API body and leaves out empty optional fields", () => {
  assert.deepEqual(profileBody({ name: " Mine ", command: "node\ncli.js", env: "", cwd: " " }), {
    body: { name: "Mine", command: ["node", "cli.js"] },
  });
  assert.deepEqual(profileBody({ name: "Mine", command: "node", env: "MOCK_AGENT_LOG=logs/x.log", cwd: "projects/app" }), {
    body: { name: "Mine", command: ["node"], env: { MOCK_AGENT_LOG: "logs/x.log" }, cwd: "projects/app" },
  });
});

test("profileBody reports every problem at once and loses nothing", () => {
  assert.deepEqual(profileBody({ name: " ", command: "\n", env: "oops", cwd: "" }), {
    problems: [
      { field: "name", kind: "empty" },
      { field: "command", kind: "empty" },
      { field: "env", kind: "line", line: 1 },
    ],
  });
});
