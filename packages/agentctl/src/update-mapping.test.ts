import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { SessionUpdateSchema } from "@kandev/protocol";
import { mapSessionUpdate } from "./update-mapping.js";

describe("mapSessionUpdate", () => {
  test("message and thought chunks carry their text", () => {
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } }), {
      kind: "agent_message_chunk",
      text: "hi",
    });
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hm" } }), {
      kind: "agent_thought_chunk",
      text: "hm",
    });
  });
  test("non-text content is named, not dropped", () => {
    const u = mapSessionUpdate({
      sessionUpdate: "agent_message_chunk",
      content: { type: "resource_link", name: "a.txt", uri: "file:///a.txt" },
    });
    assert.deepEqual(u, { kind: "agent_message_chunk", text: "[a.txt](file:///a.txt)" });
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "agent_message_chunk", content: { type: "image", data: "", mimeType: "image/png" } }), {
      kind: "agent_message_chunk",
      text: "[image]",
    });
  });
  test("tool calls keep id, title, status and kind", () => {
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Read", status: "pending", kind: "read" }), {
      kind: "tool_call",
      tool_call_id: "t1",
      title: "Read",
      status: "pending",
      tool_kind: "read",
    });
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Read" }), {
      kind: "tool_call",
      tool_call_id: "t1",
      title: "Read",
    });
  });
  test("tool call updates drop null fields", () => {
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", title: null }), {
      kind: "tool_call_update",
      tool_call_id: "t1",
      status: "completed",
    });
  });
  test("other kinds are kept by name, including unknown future ones", () => {
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "x" } }), {
      kind: "other",
      session_update: "user_message_chunk",
    });
    const future = { sessionUpdate: "hologram", x: 1 } as unknown as Parameters<typeof mapSessionUpdate>[0];
    assert.deepEqual(mapSessionUpdate(future), { kind: "other", session_update: "hologram" });
  });
  test("every mapped value satisfies the protocol schema", () => {
    const samples: Parameters<typeof mapSessionUpdate>[0][] = [
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } },
      { sessionUpdate: "tool_call", toolCallId: "a", title: "b", status: "in_progress" },
      { sessionUpdate: "tool_call_update", toolCallId: "a" },
      { sessionUpdate: "current_mode_update", currentModeId: "m" },
    ];
    for (const s of samples) SessionUpdateSchema.parse(mapSessionUpdate(s));
  });
});
