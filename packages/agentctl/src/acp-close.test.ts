import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { acpCloseFailure } from "./acp-close.js";

describe("acpCloseFailure", () => {
  test("the agent's stdout ended: its doing, worded as such", () => {
    assert.deepEqual(acpCloseFailure(new Error("ACP connection closed")), {
      text: "the agent closed its ACP output but kept running",
      byAgent: true,
    });
  });

  test("EPIPE on the agent's stdin (by code or in the message): its doing too", () => {
    const epipe = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    assert.deepEqual(acpCloseFailure(epipe), { text: "the agent closed its ACP input (stdin) but kept running", byAgent: true });
    assert.equal(acpCloseFailure(new Error("write EPIPE")).byAgent, true, "wrapped without its code");
  });

  test("anything else is a failure of the connection, with its reason", () => {
    assert.deepEqual(acpCloseFailure(new acp.MessageTooLargeError(8)), {
      text: `the ACP connection failed: ${new acp.MessageTooLargeError(8).message}`,
      byAgent: false,
    });
    assert.deepEqual(acpCloseFailure("gone"), { text: "the ACP connection failed: gone", byAgent: false });
    assert.equal(acpCloseFailure(Object.assign(new Error("write ECONNRESET"), { code: "ECONNRESET" })).byAgent, false);
  });
});
