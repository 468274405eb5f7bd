import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { TaskStateSchema, type Task } from "@kandev/protocol";
import { BOARD_COLUMNS, columnOf, groupByColumn } from "./board-columns";

function task(id: string, state: Task["state"]): Task {
  return {
    id,
    title: id,
    state,
    pending_action: null,
    agent_profile_id: "mock",
    session_id: null,
    session_state: null,
    turn_active: false,
    workspace: null,
    archived: false,
    session_usage: null,
    session_title: null,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
}

describe("board columns", () => {
  test("terminal states all land in done", () => {
    assert.equal(columnOf("COMPLETED"), "done");
    assert.equal(columnOf("FAILED"), "done");
    assert.equal(columnOf("CANCELLED"), "done");
  });

  test("every task state has a column", () => {
    for (const state of TaskStateSchema.options) assert.ok(BOARD_COLUMNS.includes(columnOf(state)));
  });

  test("grouping keeps the list order inside each column", () => {
    const groups = groupByColumn([task("c", "REVIEW"), task("a", "TODO"), task("b", "REVIEW"), task("d", "FAILED")]);
    assert.deepEqual(
      groups.review.map((t) => t.id),
      ["c", "b"],
    );
    assert.deepEqual(
      groups.todo.map((t) => t.id),
      ["a"],
    );
    assert.deepEqual(
      groups.done.map((t) => t.id),
      ["d"],
    );
    assert.deepEqual(groups.inProgress, []);
    assert.deepEqual(groups.waiting, []);
  });
});
