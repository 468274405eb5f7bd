import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { keyCommand, movedIndex, type KeyContext } from "./keyboard";

const at = (over: Partial<KeyContext>): KeyContext => ({
  source: "elicitation",
  key: "",
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  isComposing: false,
  inTextBox: false,
  onOption: false,
  onButton: false,
  ...over,
});

describe("overlay keyboard map", () => {
  test("digits 1-9 pick an option outside text boxes; 0 and digits in a text box do not", () => {
    assert.deepEqual(keyCommand(at({ key: "1" })), { type: "pick", index: 0 });
    assert.deepEqual(keyCommand(at({ key: "9", onOption: true })), { type: "pick", index: 8 });
    assert.equal(keyCommand(at({ key: "0" })), null);
    assert.equal(keyCommand(at({ key: "3", inTextBox: true })), null);
  });
  test("Enter advances; Shift+Enter is a newline; an IME's Enter is left alone", () => {
    assert.deepEqual(keyCommand(at({ key: "Enter", inTextBox: true })), { type: "advance" });
    assert.deepEqual(keyCommand(at({ key: "Enter" })), { type: "advance" });
    assert.equal(keyCommand(at({ key: "Enter", inTextBox: true, shiftKey: true })), null);
    assert.equal(keyCommand(at({ key: "Enter", inTextBox: true, isComposing: true })), null);
  });
  test("Enter on a focused option submits an elicitation form but clicks a ask-tool option", () => {
    assert.deepEqual(keyCommand(at({ key: "Enter", onOption: true })), { type: "advance" });
    assert.equal(keyCommand(at({ key: "Enter", onOption: true, source: "kandev_tool" })), null);
    assert.equal(keyCommand(at({ key: "Enter", onButton: true })), null);
  });
  test("Escape collapses from anywhere, even a text box", () => {
    assert.deepEqual(keyCommand(at({ key: "Escape", inTextBox: true })), { type: "collapse" });
  });
  test("arrows move between options only when an option has focus", () => {
    assert.deepEqual(keyCommand(at({ key: "ArrowDown", onOption: true })), { type: "move", delta: 1 });
    assert.deepEqual(keyCommand(at({ key: "ArrowRight", onOption: true })), { type: "move", delta: 1 });
    assert.deepEqual(keyCommand(at({ key: "ArrowUp", onOption: true })), { type: "move", delta: -1 });
    assert.deepEqual(keyCommand(at({ key: "ArrowLeft", onOption: true })), { type: "move", delta: -1 });
    assert.equal(keyCommand(at({ key: "ArrowDown", inTextBox: true })), null);
  });
  test("modifier chords belong to the browser", () => {
    assert.equal(keyCommand(at({ key: "1", ctrlKey: true })), null);
    assert.equal(keyCommand(at({ key: "Enter", metaKey: true })), null);
  });
  test("movedIndex wraps both ways", () => {
    assert.equal(movedIndex(2, 1, 3), 0);
    assert.equal(movedIndex(0, -1, 3), 2);
    assert.equal(movedIndex(1, 1, 3), 2);
    assert.equal(movedIndex(0, 1, 0), 0);
  });
});
