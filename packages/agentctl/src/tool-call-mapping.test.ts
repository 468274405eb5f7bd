import { test, describe } from "node:test";
import assert from "node:assert/strict";
import type * as acp from "@agentclientprotocol/sdk";
import { SessionUpdateSchema, TOOL_CALL_CAPS } from "@kandev/protocol";
import { mapSessionUpdate } from "./update-mapping.js";
import { capRaw, mapToolCallContent } from "./tool-call-mapping.js";
import { BRIDGE_VERSIONS, firstToolCallUpdates } from "../test/bridge-session.js";

describe("tool call mapping", () => {
  for (const version of BRIDGE_VERSIONS) {
    test(`the Claude bridge ${version}'s Write keeps its diff, location, raw input and raw output`, () => {
      const updates = firstToolCallUpdates(version);
      const mapped = updates.map((u) => SessionUpdateSchema.parse(mapSessionUpdate(u)));
      // The file the bridge wrote, as it named it in its raw input (an absolute path on the machine that captured it).
      const file = String((updates[1] as { rawInput?: { file_path?: unknown } }).rawInput?.file_path);
      assert.match(file, /\/hello\.txt$/);
      assert.deepEqual(
        mapped.map((m) => m.kind),
        ["tool_call", "tool_call_update", "tool_call_update", "tool_call_update"],
      );
      const [call, edit, meta, done] = mapped;
      assert.equal(call?.kind === "tool_call" && call.tool_kind, "edit");
      assert.deepEqual(call?.kind === "tool_call" && call.content, []);
      assert.ok(edit?.kind === "tool_call_update");
      assert.deepEqual(edit.content, [{ type: "diff", path: file, old_text: null, new_text: "hello from the fake model\n" }]);
      assert.deepEqual(edit.locations, [{ path: file }]);
      assert.deepEqual(edit.raw_input, { file_path: file, content: "hello from the fake model\n" });
      // The update with only `_meta` changes nothing the board keeps: no field appears that would wipe an earlier one.
      assert.deepEqual(meta, { kind: "tool_call_update", tool_call_id: edit.tool_call_id });
      assert.ok(done?.kind === "tool_call_update");
      assert.equal(done.status, "completed");
      assert.match(String(done.raw_output), /^File created successfully/);
      assert.equal(done.content, undefined);
    });
  }

  test("text, diff of an existing file and terminal content are kept; other blocks are named", () => {
    const out = mapSessionUpdate({
      sessionUpdate: "tool_call",
      toolCallId: "t",
      title: "Edit",
      content: [
        { type: "content", content: { type: "text", text: "ok" } },
        { type: "content", content: { type: "image", data: "", mimeType: "image/png" } },
        { type: "diff", path: "a.ts", oldText: "a\n", newText: "b\n" },
        { type: "terminal", terminalId: "term-1" },
      ],
      locations: [
        { path: "a.ts", line: 3 },
        { path: "b.ts", line: null },
      ],
    });
    assert.deepEqual(SessionUpdateSchema.parse(out), {
      kind: "tool_call",
      tool_call_id: "t",
      title: "Edit",
      content: [
        { type: "text", text: "ok" },
        { type: "text", text: "[image]" },
        { type: "diff", path: "a.ts", old_text: "a\n", new_text: "b\n" },
        { type: "terminal", terminal_id: "term-1" },
      ],
      locations: [{ path: "a.ts", line: 3 }, { path: "b.ts" }],
    });
  });

  test("an unknown content kind is kept by name, never a crash", () => {
    const future = { type: "hologram", x: 1 } as unknown as acp.ToolCallContent;
    assert.deepEqual(mapToolCallContent(future), { type: "text", text: "[hologram]" });
  });

  test("an unknown session update kind is kept by name", () => {
    const future = { sessionUpdate: "tool_call_hologram", toolCallId: "t" } as unknown as acp.SessionUpdate;
    assert.deepEqual(mapSessionUpdate(future), { kind: "other", session_update: "tool_call_hologram" });
  });

  test("text over its cap is cut and flagged", () => {
    const long = "x".repeat(TOOL_CALL_CAPS.textChars + 10);
    const out = mapToolCallContent({ type: "content", content: { type: "text", text: long } });
    assert.ok(out.type === "text");
    assert.equal(out.text.length, TOOL_CALL_CAPS.textChars);
    assert.equal(out.truncated, true);
  });

  test("a cut never splits a surrogate pair", () => {
    const long = `${"x".repeat(TOOL_CALL_CAPS.textChars - 1)}😀`;
    const out = mapToolCallContent({ type: "content", content: { type: "text", text: long } });
    assert.ok(out.type === "text");
    assert.equal(out.text, "x".repeat(TOOL_CALL_CAPS.textChars - 1));
  });

  test("each diff side is capped on its own and the diff flagged", () => {
    const big = "y".repeat(TOOL_CALL_CAPS.diffSideChars + 1);
    const out = mapToolCallContent({ type: "diff", path: "p", oldText: "small", newText: big });
    assert.deepEqual(out, { type: "diff", path: "p", old_text: "small", new_text: big.slice(0, TOOL_CALL_CAPS.diffSideChars), truncated: true });
    const fits = mapToolCallContent({ type: "diff", path: "p", oldText: null, newText: "z" });
    assert.deepEqual(fits, { type: "diff", path: "p", old_text: null, new_text: "z" });
  });

  test("raw input and output over the cap become their cut JSON text, flagged", () => {
    const big = { blob: "q".repeat(TOOL_CALL_CAPS.rawChars) };
    const out = mapSessionUpdate({ sessionUpdate: "tool_call_update", toolCallId: "t", rawInput: big, rawOutput: big });
    assert.ok(out.kind === "tool_call_update");
    assert.equal(typeof out.raw_input, "string");
    assert.equal((out.raw_input as string).length, TOOL_CALL_CAPS.rawChars);
    assert.ok((out.raw_input as string).startsWith('{"blob":"qqq'));
    assert.equal(out.raw_input_truncated, true);
    assert.equal(out.raw_output_truncated, true);
    assert.deepEqual(capRaw({ a: 1 }), { value: { a: 1 }, truncated: false });
  });

  test("raw values JSON cannot write are named, not thrown", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.deepEqual(capRaw(cyclic), { value: "[unserializable object]", truncated: false });
  });

  test("a plan keeps every entry's content, priority and status", () => {
    const out = mapSessionUpdate({
      sessionUpdate: "plan",
      entries: [
        { content: "Read", priority: "high", status: "completed" },
        { content: "Write", priority: "low", status: "pending", _meta: { x: 1 } },
      ],
    });
    assert.deepEqual(SessionUpdateSchema.parse(out), {
      kind: "plan",
      entries: [
        { content: "Read", priority: "high", status: "completed" },
        { content: "Write", priority: "low", status: "pending" },
      ],
    });
  });
});
