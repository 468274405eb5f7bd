import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_PROMPT, DEFAULT_TIMEOUT_MS, parseProbeArgs, splitCommand, UsageError } from "./args.js";

describe("splitCommand", () => {
  test("splits on whitespace and honours quotes and backslashes", () => {
    assert.deepEqual(splitCommand("npx -y @zed-industries/claude-code-acp"), ["npx", "-y", "@zed-industries/claude-code-acp"]);
    assert.deepEqual(splitCommand(`node -e "console.log('a b')"  x`), ["node", "-e", "console.log('a b')", "x"]);
    assert.deepEqual(splitCommand(`'/path with space/agent' --flag=\\"q\\"`), ["/path with space/agent", '--flag="q"']);
    assert.deepEqual(splitCommand(`a "" b`), ["a", "", "b"]);
    assert.deepEqual(splitCommand(`say "\\"hi\\" \\\\ \\n"`), ["say", '"hi" \\ \\n']);
    assert.deepEqual(splitCommand("   "), []);
  });
  test("an unterminated quote is a usage error", () => {
    assert.throws(() => splitCommand(`node -e "oops`), UsageError);
  });
});

describe("parseProbeArgs", () => {
  test("defaults", () => {
    assert.deepEqual(parseProbeArgs(["--agent", "my-agent --acp"], "/w"), {
      agent: ["my-agent", "--acp"],
      elicitation: "on",
      prompt: DEFAULT_PROMPT,
      answer: null,
      permission: "deny",
      agentId: "generic",
      cwd: "/w",
      timeoutMs: DEFAULT_TIMEOUT_MS,
      json: false,
    });
  });
  test("every flag, in both --flag value and --flag=value forms", () => {
    const a = parseProbeArgs(
      [
        "--agent=a",
        "--elicitation",
        "both",
        "--prompt=hi",
        "--answer",
        '{"q":"Red"}',
        "--permission",
        "allow",
        "--agent-id",
        "cursor-agent",
        "--cwd",
        "/x",
        "--timeout",
        "1m30s",
        "--json",
      ],
      "/w",
    );
    assert.deepEqual(a, {
      agent: ["a"],
      elicitation: "both",
      prompt: "hi",
      answer: { q: "Red" },
      permission: "allow",
      agentId: "cursor-agent",
      cwd: "/x",
      timeoutMs: 90_000,
      json: true,
    });
  });
  test("bad input gets a clear UsageError", () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /--agent is required/],
      [["--agent", "  "], /--agent is empty/],
      [["--agent"], /--agent needs a value/],
      [["--agent", "a", "--elicitation", "yes"], /on, off or both/],
      [["--agent", "a", "--answer", "{nope"], /--answer is not JSON/],
      [["--agent", "a", "--answer", "[1]"], /must be a JSON object/],
      [["--agent", "a", "--timeout", "soon"], /not a duration/],
      [["--agent", "a", "--permission", "maybe"], /allow or deny/],
      [["--agent", "a", "--prompt", " "], /--prompt is empty/],
      [["--agent", "a", "--verbose"], /unknown argument "--verbose"/],
    ];
    for (const [argv, message] of cases)
      assert.throws(
        () => parseProbeArgs(argv, "/w"),
        (e: unknown) => e instanceof UsageError && message.test(e.message),
        argv.join(" "),
      );
  });
});
