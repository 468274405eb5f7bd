import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { SessionStateSchema, TaskStateSchema, type PendingAction } from "@kandev/protocol";
import { TASK_STATE_ICONS, taskStateIcon, type TaskStateInput } from "./task-state-icon";

function task(over: Partial<TaskStateInput>): TaskStateInput {
  return { state: "IN_PROGRESS", pending_action: null, session_state: "RUNNING", turn_active: false, ...over };
}

const taskStates = TaskStateSchema.options;
const sessionStates = [...SessionStateSchema.options, null] as const;
const pendings: PendingAction[] = [null, "clarification", "permission"];

describe("taskStateIcon", () => {
  test("a pending clarification is waiting-for-input whatever the session does (AC-09)", () => {
    for (const state of taskStates) {
      for (const session_state of sessionStates) {
        for (const turn_active of [true, false]) {
          const icon = taskStateIcon(task({ state, session_state, turn_active, pending_action: "clarification" }));
          assert.equal(icon, "waiting-for-input", `${state}/${String(session_state)}/${turn_active}`);
        }
      }
    }
  });

  test("a RUNNING session with a pending clarification is never running (AC-09)", () => {
    const icon = taskStateIcon({
      state: "WAITING_FOR_INPUT",
      session_state: "RUNNING",
      turn_active: true,
      pending_action: "clarification",
    });
    assert.equal(icon, "waiting-for-input");
    assert.notEqual(icon, "running");
  });

  test("a pending permission is waiting-for-permission even while the turn runs", () => {
    assert.equal(taskStateIcon(task({ pending_action: "permission", turn_active: true })), "waiting-for-permission");
  });

  test("an active turn is running", () => {
    assert.equal(taskStateIcon(task({ turn_active: true })), "running");
    assert.equal(taskStateIcon(task({ session_state: "RUNNING" })), "running");
  });

  test("a failed task or session is failed, even with a stale turn_active", () => {
    assert.equal(taskStateIcon(task({ state: "FAILED", session_state: "FAILED" })), "failed");
    assert.equal(taskStateIcon(task({ state: "IN_PROGRESS", session_state: "FAILED", turn_active: true })), "failed");
    assert.equal(taskStateIcon(task({ state: "FAILED", session_state: null })), "failed");
  });

  test("the coarse task states map to their icons", () => {
    assert.equal(taskStateIcon(task({ state: "REVIEW", session_state: "WAITING_FOR_INPUT" })), "turn-finished");
    assert.equal(taskStateIcon(task({ state: "TODO", session_state: null })), "todo");
    assert.equal(taskStateIcon(task({ state: "CANCELLED", session_state: "CANCELLED" })), "cancelled");
    assert.equal(taskStateIcon(task({ state: "COMPLETED", session_state: "COMPLETED" })), "completed");
    assert.equal(taskStateIcon(task({ state: "WAITING_FOR_INPUT", session_state: "RUNNING" })), "waiting-for-input");
  });

  test("an IN_PROGRESS task whose session is still coming up is starting", () => {
    for (const session_state of ["CREATED", "STARTING", null] as const) {
      assert.equal(taskStateIcon(task({ session_state })), "starting");
    }
    assert.equal(taskStateIcon(task({ session_state: "WAITING_FOR_INPUT" })), "turn-finished");
  });

  test("every combination yields a known icon", () => {
    for (const state of taskStates) {
      for (const session_state of sessionStates) {
        for (const pending_action of pendings) {
          for (const turn_active of [true, false]) {
            const icon = taskStateIcon({ state, session_state, pending_action, turn_active });
            assert.ok(TASK_STATE_ICONS.includes(icon), icon);
          }
        }
      }
    }
  });
});
