import { test, describe } from "node:test";
import assert from "node:assert/strict";
import {
  alignSequences,
  emptySessionState,
  jsonReport,
  notePlan,
  noteSessionState,
  noteToolCall,
  renderComparison,
  renderRun,
  type ProbeRun,
  type ToolCallSeen,
} from "./report.js";
import { WireRecorder, entryLine, sequenceLines } from "./wire.js";

describe("WireRecorder", () => {
  test("names each response after the request it answers, in both directions", () => {
    const w = new WireRecorder();
    w.record("client->agent", { jsonrpc: "2.0", id: 0, method: "initialize", params: {} });
    w.record("agent->client", { jsonrpc: "2.0", id: 0, result: {} });
    w.record("client->agent", { jsonrpc: "2.0", id: 1, method: "session/prompt", params: {} });
    w.record("agent->client", { jsonrpc: "2.0", method: "session/update", params: {} });
    w.record("agent->client", { jsonrpc: "2.0", id: 0, method: "elicitation/create", params: {} }); // same id, other direction
    w.record("client->agent", { jsonrpc: "2.0", id: 0, result: { action: "decline" } });
    w.record("agent->client", { jsonrpc: "2.0", id: 7, method: "fs/read_text_file", params: {} });
    w.record("client->agent", { jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found" } });
    w.record("agent->client", { jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } });
    w.record("agent->client", { jsonrpc: "2.0", id: 99, result: {} });
    w.record("agent->client", "garbage");
    assert.deepEqual(w.entries.map(entryLine), [
      "-> initialize",
      "<- initialize (result)",
      "-> session/prompt",
      "<- session/update (notification)",
      "<- elicitation/create",
      "-> elicitation/create (result)",
      "<- fs/read_text_file",
      "-> fs/read_text_file (error -32601)",
      "<- session/prompt (result)",
      "<- (unknown request) (result)",
    ]);
  });

  test("sequenceLines folds consecutive repeats", () => {
    const w = new WireRecorder();
    for (let i = 0; i < 3; i += 1) w.record("agent->client", { method: "session/update", params: {} });
    w.record("agent->client", { id: 1, result: {} });
    w.record("agent->client", { method: "session/update", params: {} });
    assert.deepEqual(sequenceLines(w.entries), [
      "<- session/update (notification) ×3",
      "<- (unknown request) (result)",
      "<- session/update (notification)",
    ]);
  });
});

describe("alignSequences", () => {
  test("identical sequences align row by row", () => {
    assert.deepEqual(alignSequences(["a", "b"], ["a", "b"]), [
      { same: true, line: "a" },
      { same: true, line: "b" },
    ]);
  });
  test("extra lines on either side show up where they belong", () => {
    const rows = alignSequences(["init", "prompt", "update", "done"], ["init", "prompt", "elicit", "answer", "update", "done"]);
    assert.deepEqual(rows, [
      { same: true, line: "init" },
      { same: true, line: "prompt" },
      { same: false, left: null, right: "elicit" },
      { same: false, left: null, right: "answer" },
      { same: true, line: "update" },
      { same: true, line: "done" },
    ]);
    assert.deepEqual(alignSequences(["x"], []), [{ same: false, left: "x", right: null }]);
    assert.deepEqual(alignSequences([], []), []);
  });
});

describe("noteToolCall", () => {
  test("collects tool calls by id with their statuses; ignores other updates", () => {
    const calls: ToolCallSeen[] = [];
    noteToolCall(calls, { sessionUpdate: "tool_call", toolCallId: "t1", title: "AskUserQuestion", kind: "other", status: "pending" });
    noteToolCall(calls, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } });
    noteToolCall(calls, { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" });
    assert.deepEqual(calls, [
      { toolCallId: "t1", title: "AskUserQuestion", kind: "other", statuses: ["pending", "completed"], contentKinds: [], details: [] },
    ]);
  });
  test("notes the content kinds and details a call carried, as the Claude bridge sends a Write", () => {
    const calls: ToolCallSeen[] = [];
    noteToolCall(calls, { sessionUpdate: "tool_call", toolCallId: "w", title: "Write", rawInput: {}, content: [], locations: [] });
    noteToolCall(calls, {
      sessionUpdate: "tool_call_update",
      toolCallId: "w",
      rawInput: { file_path: "/a" },
      content: [{ type: "diff", path: "/a", oldText: null, newText: "x" }],
      locations: [{ path: "/a" }],
    });
    noteToolCall(calls, { sessionUpdate: "tool_call_update", toolCallId: "w", status: "completed", rawOutput: "ok" });
    assert.deepEqual(calls[0]?.contentKinds, ["diff"]);
    // The first frame's empty rawInput and lists count as not sent.
    assert.deepEqual(calls[0]?.details, ["locations", "rawInput", "rawOutput"]);
  });
  test("notes each plan update's entries", () => {
    const plans: string[][] = [];
    notePlan(plans, { sessionUpdate: "plan", entries: [{ content: "Read", priority: "high", status: "pending" }] });
    notePlan(plans, { sessionUpdate: "tool_call", toolCallId: "x" });
    assert.deepEqual(plans, [["pending Read"]]);
  });
});

function run(elicitation: "on" | "off", lines: Array<[string, "request" | "result"]>): ProbeRun {
  const w = new WireRecorder();
  for (const [i, [method, kind]] of lines.entries()) {
    w.record(kind === "request" ? "client->agent" : "agent->client", kind === "request" ? { id: i, method } : { id: i - 1, result: {} });
  }
  return {
    elicitation,
    command: ["agent"],
    clientCapabilities: elicitation === "on" ? { _meta: {}, elicitation: { form: {} } } : { _meta: {} },
    agentCapabilities: {},
    sessionId: "s",
    sequence: w.entries,
    elicitations: [],
    permissions: [],
    toolCalls: [],
    plans: [],
    sessionState: emptySessionState(),
    agentText: "hi",
    stopReason: "end_turn",
    error: null,
  };
}

describe("rendering", () => {
  const a = run("off", [
    ["initialize", "request"],
    ["initialize", "result"],
  ]);
  const b = run("on", [
    ["initialize", "request"],
    ["initialize", "result"],
  ]);
  test("renderComparison marks identical rows and reports the capability difference", () => {
    const text = renderComparison(a, b);
    assert.match(text, /^= -> initialize +\| -> initialize$/m);
    assert.match(text, /sequences: identical/);
    assert.match(text, /clientCapabilities differ/);
  });
  test("renderComparison marks rows present on one side only", () => {
    const c = run("on", [
      ["initialize", "request"],
      ["initialize", "result"],
      ["session/new", "request"],
    ]);
    const text = renderComparison(a, c);
    assert.match(text, /^≠ +\| -> session\/new$/m);
    assert.match(text, /sequences: 1 differing row\(s\)/);
  });
  test("renderRun shows sequence, text, stop reason and any error; jsonReport adds the comparison", () => {
    const text = renderRun({ ...a, error: { phase: "session/prompt", message: "timed out" } });
    assert.match(text, /method sequence[^\n]*\n {2}-> initialize\n {2}<- initialize \(result\)/);
    assert.match(text, /stop reason: end_turn/);
    assert.match(text, /error during session\/prompt: timed out/);
    const doc = jsonReport([a, b]) as { comparison: { identicalSequences: boolean }; runs: Array<{ methodSequence: string[] }> };
    assert.equal(doc.comparison.identicalSequences, true);
    assert.deepEqual(doc.runs[0]?.methodSequence, ["-> initialize", "<- initialize (result)"]);
  });
});

describe("session state in the report", () => {
  test("the last update of each state kind is kept with its count; other kinds are ignored", () => {
    const state = emptySessionState();
    noteSessionState(state, { sessionUpdate: "usage_update", used: 1, size: 10 });
    noteSessionState(state, { sessionUpdate: "usage_update", used: 2, size: 10, cost: { amount: 0.1, currency: "USD" } });
    noteSessionState(state, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } });
    noteSessionState(state, { sessionUpdate: "current_mode_update", currentModeId: "plan" });
    assert.deepEqual(state.updates, {
      usage_update: { count: 2, last: { used: 2, size: 10, cost: { amount: 0.1, currency: "USD" } } },
      current_mode_update: { count: 1, last: { currentModeId: "plan" } },
    });
    state.modes = { currentModeId: "default", availableModes: [] };
    const text = renderRun({ ...run("off", []), sessionState: state });
    assert.match(text, /usage_update ×2, last: \{"used":2/);
    assert.match(text, /available_commands_update: none/);
    assert.match(text, /modes \(session\/new\): \{"currentModeId":"default"/);
  });
});
