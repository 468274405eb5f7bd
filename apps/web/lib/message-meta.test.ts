import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { errorHeadline, permissionView, stderrTail, toolCallStatus } from "./message-meta";
import { makeMessage } from "./test-fixtures";

describe("message metadata readers", () => {
  test("tool call status: known names, missing means pending, anything else unknown", () => {
    assert.equal(toolCallStatus(makeMessage({ type: "tool_call", metadata: { status: "completed" } })), "completed");
    assert.equal(toolCallStatus(makeMessage({ type: "tool_call", metadata: {} })), "pending");
    assert.equal(toolCallStatus(makeMessage({ type: "tool_call", metadata: { status: "weird" } })), "unknown");
    assert.equal(toolCallStatus(makeMessage({ type: "tool_call", metadata: { status: 42 } })), "pending");
  });

  test("stderr tail is read only when it is a non-empty string", () => {
    assert.equal(stderrTail(makeMessage({ metadata: { stderr_tail: "boom\n" } })), "boom\n");
    assert.equal(stderrTail(makeMessage({ metadata: { stderr_tail: "" } })), null);
    assert.equal(stderrTail(makeMessage({ metadata: { stderr_tail: ["x"] } })), null);
  });

  test("an error's headline is its reason when given, else its content", () => {
    const tail = "mock-agent: crashing on purpose\n";
    const withReason = makeMessage({ type: "error", content: `agent exited\n\n${tail}`, metadata: { reason: "agent exited", stderr_tail: tail } });
    assert.equal(errorHeadline(withReason), "agent exited");
    assert.equal(errorHeadline(makeMessage({ type: "error", content: "prompt failed", metadata: { code: -32603 } })), "prompt failed");
  });

  test("permission view keeps well-formed options and reads the settlement", () => {
    const pending = permissionView(
      makeMessage({
        type: "permission_request",
        metadata: {
          pending_id: "p1",
          options: [{ option_id: "allow-once", name: "Allow once", kind: "allow_once" }, { name: "no id" }, null],
        },
      }),
    );
    assert.equal(pending.pendingId, "p1");
    assert.equal(pending.status, "pending");
    assert.deepEqual(pending.options, [{ optionId: "allow-once", name: "Allow once", kind: "allow_once" }]);

    const chosen = permissionView(makeMessage({ metadata: { pending_id: "p1", status: "selected", option_id: "allow-once" } }));
    assert.equal(chosen.status, "selected");
    assert.equal(chosen.chosenOptionId, "allow-once");
    assert.equal(permissionView(makeMessage({ metadata: { status: "cancelled" } })).status, "cancelled");
  });
});
