import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TaskStateSchema, type TaskState } from "@kandev/protocol";
import { archiveRefusal, decideMove } from "./task-moves.js";

const ALL = TaskStateSchema.options;

describe("decideMove", () => {
  test("a finished task (Review, Failed, Cancelled) moves to Done", () => {
    for (const from of ["REVIEW", "FAILED", "CANCELLED"] as const) assert.deepEqual(decideMove(from, "COMPLETED", false), { kind: "complete" });
  });

  test("a task in Done moves back to Review", () => {
    assert.deepEqual(decideMove("COMPLETED", "REVIEW", false), { kind: "reopen" });
  });

  test("moving to where the task already is changes nothing", () => {
    for (const s of ALL) assert.deepEqual(decideMove(s, s, false), { kind: "stay" });
  });

  test("a working agent's task is not done: 409 turn_running", () => {
    for (const from of ["IN_PROGRESS", "WAITING_FOR_INPUT"] as const) {
      const d = decideMove(from, "COMPLETED", true);
      assert.equal(d.kind === "refused" && d.status === 409 && d.reason, "turn_running");
    }
    const d = decideMove("REVIEW", "COMPLETED", true);
    assert.equal(d.kind === "refused" && d.reason, "turn_running", "a prompt just sent counts too");
  });

  test("only Done goes back to Review (409 not_done); a TODO task cannot be done (409 not_started)", () => {
    for (const from of ALL.filter((s) => s !== "COMPLETED" && s !== "REVIEW")) {
      const d = decideMove(from, "REVIEW", false);
      assert.equal(d.kind === "refused" && `${d.status} ${d.reason}`, "409 not_done", from);
    }
    const todo = decideMove("TODO", "COMPLETED", false);
    assert.equal(todo.kind === "refused" && `${todo.status} ${todo.reason}`, "409 not_started");
  });

  test("states that follow the session cannot be chosen: 400 not_movable", () => {
    const targets: TaskState[] = ["TODO", "IN_PROGRESS", "WAITING_FOR_INPUT", "FAILED", "CANCELLED"];
    for (const to of targets) {
      for (const from of ALL.filter((s) => s !== to)) {
        const d = decideMove(from, to, false);
        assert.equal(d.kind === "refused" && `${d.status} ${d.reason}`, "400 not_movable", `${from} -> ${to}`);
      }
    }
  });
});

describe("archiveRefusal", () => {
  test("refused only while a turn runs", () => {
    assert.equal(archiveRefusal(false), null);
    assert.match(archiveRefusal(true)!, /stop its turn first/);
  });
});
