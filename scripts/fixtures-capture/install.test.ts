import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { npmErrorText } from "./install.js";

describe("npm error text", () => {
  test("keeps npm's own error lines (the 404 / ETARGET message) and drops the rest", () => {
    const stderr = [
      "npm warn EBADENGINE Unsupported engine",
      "npm error code ETARGET",
      "npm error notarget No matching version found for @agentclientprotocol/claude-agent-acp@9.9.9.",
      "",
    ].join("\n");
    assert.equal(
      npmErrorText(stderr),
      "  npm error code ETARGET\n  npm error notarget No matching version found for @agentclientprotocol/claude-agent-acp@9.9.9.",
    );
    assert.equal(npmErrorText("npm ERR! 404 Not Found - GET https://x/y\n"), "  npm ERR! 404 Not Found - GET https://x/y");
  });

  test("without npm error lines, the last lines of stderr are shown as they are", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const text = npmErrorText(lines.join("\n"));
    assert.equal(text.split("\n").length, 20);
    assert.ok(text.startsWith("  line 10") && text.endsWith("  line 29"));
  });
});
