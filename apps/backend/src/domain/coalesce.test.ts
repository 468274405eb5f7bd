import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { SessionUpdate } from "@kandev/protocol";
import { advanceCursor, closeOpen, decideUpdate, emptyCursor, type CoalesceDecision, type StreamCursor } from "./coalesce.js";

/** Runs updates through the pure rules, numbering created messages m1, m2, ... */
function run(updates: Array<[string | null, SessionUpdate]>, start: StreamCursor = emptyCursor("t1")) {
  let cursor = start;
  let n = 0;
  const decisions: CoalesceDecision[] = [];
  for (const [turn, update] of updates) {
    const d = decideUpdate(cursor, turn, update);
    decisions.push(d);
    const id = d.kind === "create" || d.kind === "create_tool" || d.kind === "create_plan" ? `m${++n}` : undefined;
    cursor = advanceCursor(cursor, turn, d, id);
  }
  return { decisions, cursor };
}
const chunk = (text: string): SessionUpdate => ({ kind: "agent_message_chunk", text });
const thought = (text: string): SessionUpdate => ({ kind: "agent_thought_chunk", text });
const tool = (id: string, status?: string): SessionUpdate => ({ kind: "tool_call", tool_call_id: id, title: `run ${id}`, ...(status && { status }) });

describe("message coalescing", () => {
  test("consecutive chunks of one turn grow one text message", () => {
    const { decisions } = run([
      ["t1", chunk("hel")],
      ["t1", chunk("lo")],
      ["t1", chunk("!")],
    ]);
    assert.deepEqual(decisions, [
      { kind: "create", type: "text", text: "hel" },
      { kind: "append", messageId: "m1", text: "lo" },
      { kind: "append", messageId: "m1", text: "!" },
    ]);
  });

  test("a tool call in between starts a new text message", () => {
    const { decisions } = run([
      ["t1", chunk("a")],
      ["t1", tool("x")],
      ["t1", chunk("b")],
    ]);
    assert.deepEqual(
      decisions.map((d) => d.kind),
      ["create", "create_tool", "create"],
    );
  });

  test("one tool_call message per tool_call_id, updated in place", () => {
    const { decisions } = run([
      ["t1", tool("x", "pending")],
      ["t1", { kind: "tool_call_update", tool_call_id: "x", status: "completed" }],
      ["t1", { kind: "tool_call_update", tool_call_id: "y", title: "late" }],
    ]);
    assert.deepEqual(decisions[1], {
      kind: "update_tool",
      messageId: "m1",
      event: { kind: "tool_call_update", tool_call_id: "x", status: "completed" },
    });
    assert.deepEqual(decisions[2], { kind: "create_tool", toolCallId: "y", event: { kind: "tool_call_update", tool_call_id: "y", title: "late" } });
  });

  test("a tool update between chunks also closes the open message", () => {
    const { decisions } = run([
      ["t1", tool("x")],
      ["t1", chunk("a")],
      ["t1", { kind: "tool_call_update", tool_call_id: "x", status: "completed" }],
      ["t1", chunk("b")],
    ]);
    assert.deepEqual(
      decisions.map((d) => d.kind),
      ["create_tool", "create", "update_tool", "create"],
    );
  });

  test("thoughts coalesce separately; switching kind starts a new message", () => {
    const { decisions } = run([
      ["t1", thought("hm")],
      ["t1", thought("m")],
      ["t1", chunk("a")],
      ["t1", thought("again")],
    ]);
    assert.deepEqual(
      decisions.map((d) => d.kind),
      ["create", "append", "create", "create"],
    );
    assert.equal((decisions[3] as { type: string }).type, "thought");
  });

  test("a new turn never appends to the previous turn's message", () => {
    const { decisions } = run([
      ["t1", chunk("a")],
      ["t2", chunk("b")],
      ["t2", chunk("c")],
    ]);
    assert.deepEqual(
      decisions.map((d) => d.kind),
      ["create", "create", "append"],
    );
  });

  test("tool call ids are per turn", () => {
    const { decisions } = run([
      ["t1", tool("x")],
      ["t2", tool("x")],
    ]);
    assert.deepEqual(
      decisions.map((d) => d.kind),
      ["create_tool", "create_tool"],
    );
  });

  test("closeOpen (a permission request entered the transcript) ends the text message", () => {
    const first = run([["t1", chunk("a")]]);
    const { decisions } = run([["t1", chunk("b")]], closeOpen(first.cursor));
    assert.equal(decisions[0]!.kind, "create");
  });

  test("empty chunks and unknown updates are ignored without closing the message", () => {
    const { decisions } = run([
      ["t1", chunk("a")],
      ["t1", chunk("")],
      ["t1", { kind: "other", session_update: "hologram" }],
      ["t1", chunk("b")],
    ]);
    assert.deepEqual(
      decisions.map((d) => d.kind),
      ["create", "ignore", "ignore", "append"],
    );
  });

  test("a turn's plan is one message, updated in place with each whole plan", () => {
    const entries = (status: string) => [{ content: "write it", priority: "high", status }];
    const { decisions } = run([
      ["t1", { kind: "plan", entries: entries("pending") }],
      ["t1", chunk("working")],
      ["t1", { kind: "plan", entries: entries("completed") }],
      ["t1", chunk(" on it")],
    ]);
    assert.deepEqual(decisions, [
      { kind: "create_plan", entries: entries("pending") },
      { kind: "create", type: "text", text: "working" },
      { kind: "update_plan", messageId: "m1", entries: entries("completed") },
      // The plan changed in place: the text being written goes on in its message.
      { kind: "append", messageId: "m2", text: " on it" },
    ]);
  });

  test("the next turn's plan is a new message", () => {
    const plan: SessionUpdate = { kind: "plan", entries: [] };
    const { decisions } = run([
      ["t1", plan],
      ["t2", plan],
      ["t2", plan],
    ]);
    assert.deepEqual(
      decisions.map((d) => d.kind),
      ["create_plan", "create_plan", "update_plan"],
    );
  });

  test("advancing a create without an id is a programming error", () => {
    assert.throws(() => advanceCursor(emptyCursor("t1"), "t1", { kind: "create", type: "text", text: "a" }));
  });
});
