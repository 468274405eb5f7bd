import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  currentPlan,
  isLong,
  pinnedPlan,
  locationLabel,
  planStatus,
  rawText,
  toolCallDetails,
  toolKindIcon,
  workspaceRelative,
} from "./tool-call-view";
import { makeMessage } from "./test-fixtures";

describe("tool call view", () => {
  test("details are read from metadata; an old row with only title and status has none", () => {
    const old = toolCallDetails(makeMessage({ type: "tool_call", metadata: { tool_call_id: "t", title: "x", status: "completed" } }));
    assert.deepEqual(old, { content: [], locations: [], rawInput: null, rawOutput: null, kind: "other" });
    const full = toolCallDetails(
      makeMessage({
        type: "tool_call",
        metadata: {
          tool_call_id: "t",
          title: "x",
          status: "completed",
          tool_kind: "edit",
          content: [{ type: "diff", path: "/w/a.ts", old_text: null, new_text: "a" }],
          locations: [{ path: "/w/a.ts", line: 4 }],
          raw_input: { file_path: "/w/a.ts" },
          raw_output: '{"cut',
          raw_output_truncated: true,
        },
      }),
    );
    assert.equal(full.kind, "edit");
    assert.equal(full.content.length, 1);
    assert.deepEqual(full.rawInput, { text: '{\n  "file_path": "/w/a.ts"\n}', truncated: false });
    assert.deepEqual(full.rawOutput, { text: '{"cut', truncated: true });
  });

  test("metadata that does not parse degrades to no details", () => {
    const bad = toolCallDetails(makeMessage({ type: "tool_call", metadata: { tool_call_id: "t", title: "x", status: "done", content: "nope" } }));
    assert.deepEqual(bad.content, []);
  });

  test("unknown tool kinds show the other icon", () => {
    assert.equal(toolKindIcon("execute"), "execute");
    assert.equal(toolKindIcon("teleport"), "other");
    assert.equal(toolKindIcon(undefined), "other");
  });

  test("locations read path:line, shortened to the worktree when inside it", () => {
    assert.equal(locationLabel({ path: "/w/t1/src/a.ts", line: 3 }, "/w/t1"), "src/a.ts:3");
    assert.equal(locationLabel({ path: "/elsewhere/a.ts" }, "/w/t1"), "/elsewhere/a.ts");
    assert.equal(locationLabel({ path: "/w/t1/a.ts" }, null), "/w/t1/a.ts");
    assert.equal(workspaceRelative("/w/t10/a.ts", "/w/t1"), null, "a sibling folder sharing a prefix is outside");
    assert.equal(workspaceRelative("/w/t1/", "/w/t1/"), null);
  });

  test("long text folds by lines or characters", () => {
    assert.equal(isLong("a\n".repeat(5)), false);
    assert.equal(isLong("a\n".repeat(20)), true);
    assert.equal(isLong("x".repeat(5000)), true);
  });

  test("raw text: strings as they are, values as pretty JSON", () => {
    assert.equal(rawText("plain"), "plain");
    assert.equal(rawText([1]), "[\n  1\n]");
  });

  test("the pinned plan is the newest plan message", () => {
    const older = makeMessage({ id: "p1", type: "plan", metadata: { entries: [{ content: "a", priority: "high", status: "completed" }] } });
    const newer = makeMessage({ id: "p2", type: "plan", metadata: { entries: [{ content: "b", priority: "low", status: "pending" }] } });
    const text = makeMessage({ id: "m", type: "text" });
    assert.equal(currentPlan([older, text, newer, text])?.message.id, "p2");
    assert.equal(currentPlan([text]), null);
    assert.equal(planStatus("in_progress"), "in_progress");
    assert.equal(planStatus("blocked"), "pending");
  });

  test("the pinned plan comes from the loaded pages first, else from the board's answer for an older plan", () => {
    const loaded = makeMessage({ id: "p-loaded", type: "plan", metadata: { entries: [{ content: "a", priority: "low", status: "pending" }] } });
    const fetched = makeMessage({ id: "p-old", type: "plan", metadata: { entries: [{ content: "b", priority: "high", status: "completed" }] } });
    const text = makeMessage({ id: "t", type: "text" });
    assert.equal(pinnedPlan([text, loaded], fetched)?.message.id, "p-loaded");
    assert.equal(pinnedPlan([text], fetched)?.entries[0]?.content, "b");
    assert.equal(pinnedPlan([text], null), null);
    assert.equal(pinnedPlan([text], undefined), null);
    assert.equal(pinnedPlan([text], makeMessage({ id: "bad", type: "plan", metadata: {} })), null);
  });
});
