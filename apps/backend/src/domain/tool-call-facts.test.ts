import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { initialToolCall, mergeToolCall, planText, toolCallTitle } from "./tool-call-facts.js";

describe("tool call facts", () => {
  test("a tool call's first event gives title, status, kind and details", () => {
    const m = initialToolCall({
      kind: "tool_call",
      tool_call_id: "t1",
      title: "Write a.txt",
      tool_kind: "edit",
      locations: [{ path: "a.txt", line: 2 }],
      raw_input: { file_path: "a.txt" },
    });
    assert.deepEqual(m, {
      tool_call_id: "t1",
      title: "Write a.txt",
      status: "pending",
      tool_kind: "edit",
      locations: [{ path: "a.txt", line: 2 }],
      raw_input: { file_path: "a.txt" },
    });
    assert.equal(toolCallTitle(m), "Write a.txt");
  });

  test("an update before its tool call is titled by the call's id", () => {
    assert.deepEqual(initialToolCall({ kind: "tool_call_update", tool_call_id: "t9", status: "in_progress" }), {
      tool_call_id: "t9",
      title: "t9",
      status: "in_progress",
    });
  });

  test("fields an update lacks keep their earlier values", () => {
    const first = initialToolCall({
      kind: "tool_call",
      tool_call_id: "t1",
      title: "Run",
      raw_input: { cmd: "ls" },
      content: [{ type: "text", text: "a" }],
    });
    const next = mergeToolCall(first, { kind: "tool_call_update", tool_call_id: "t1", status: "completed" });
    assert.deepEqual(next, { ...first, status: "completed" });
  });

  test("content and locations in an update replace the lists whole", () => {
    const first = initialToolCall({
      kind: "tool_call",
      tool_call_id: "t1",
      title: "Edit",
      content: [
        { type: "text", text: "old" },
        { type: "terminal", terminal_id: "x" },
      ],
      locations: [{ path: "a" }, { path: "b" }],
    });
    const next = mergeToolCall(first, {
      kind: "tool_call_update",
      tool_call_id: "t1",
      content: [{ type: "diff", path: "a", old_text: null, new_text: "n" }],
      locations: [],
    });
    assert.deepEqual(next.content, [{ type: "diff", path: "a", old_text: null, new_text: "n" }]);
    assert.deepEqual(next.locations, []);
  });

  test("a raw value's cut flag travels with the value", () => {
    const cut = initialToolCall({ kind: "tool_call", tool_call_id: "t1", title: "Run", raw_output: '{"a', raw_output_truncated: true });
    assert.equal(cut.raw_output_truncated, true);
    const whole = mergeToolCall(cut, { kind: "tool_call_update", tool_call_id: "t1", raw_output: "done" });
    assert.equal(whole.raw_output, "done");
    assert.equal("raw_output_truncated" in whole, false);
    const untouched = mergeToolCall(cut, { kind: "tool_call_update", tool_call_id: "t1", status: "failed" });
    assert.equal(untouched.raw_output_truncated, true);
  });

  test("a plan reads as a plain checklist", () => {
    assert.equal(
      planText([
        { content: "Read", priority: "high", status: "completed" },
        { content: "Write", priority: "medium", status: "in_progress" },
        { content: "Test", priority: "low", status: "pending" },
      ]),
      "[x] Read\n[~] Write\n[ ] Test",
    );
  });
});
