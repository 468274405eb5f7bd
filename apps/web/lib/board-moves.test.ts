import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TaskStateSchema } from "@kandev/protocol";
import { BOARD_COLUMNS } from "./board-columns";
import { dropTarget, keyboardMove } from "./board-moves";

const idle = (state: (typeof TaskStateSchema.options)[number]) => ({ state, turn_active: false });

describe("dropTarget", () => {
  test("a task in Review drops on Done as COMPLETED (failed and cancelled ones are in Done already)", () => {
    assert.equal(dropTarget(idle("REVIEW"), "done"), "COMPLETED");
    assert.equal(dropTarget(idle("FAILED"), "done"), null);
  });
  test("a completed task drops back on Review", () => {
    assert.equal(dropTarget(idle("COMPLETED"), "review"), "REVIEW");
  });
  test("every other drop is refused, and nothing moves while its turn runs", () => {
    const allowed = new Set(["REVIEW>done", "COMPLETED>review"]);
    for (const s of TaskStateSchema.options) {
      for (const c of BOARD_COLUMNS) {
        if (allowed.has(`${s}>${c}`)) continue;
        assert.equal(dropTarget(idle(s), c), null, `${s} -> ${c}`);
      }
    }
    assert.equal(dropTarget({ state: "REVIEW", turn_active: true }, "done"), null);
  });
});

describe("keyboardMove", () => {
  test("Shift+Right takes a task in Review to Done; Shift+Left brings it back", () => {
    assert.deepEqual(keyboardMove(idle("REVIEW"), "right"), { column: "done", state: "COMPLETED" });
    assert.deepEqual(keyboardMove(idle("COMPLETED"), "left"), { column: "review", state: "REVIEW" });
  });
  test("no column in that direction takes it: null", () => {
    assert.equal(keyboardMove(idle("REVIEW"), "left"), null);
    assert.equal(keyboardMove(idle("COMPLETED"), "right"), null);
    assert.equal(keyboardMove(idle("IN_PROGRESS"), "right"), null);
  });
});
