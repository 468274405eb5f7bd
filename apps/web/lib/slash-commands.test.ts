import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { completeCommand, matchCommands, moveHighlight, slashQuery } from "./slash-commands";

const COMMANDS = [
  { name: "review", description: "Review", input_hint: "[path]" },
  { name: "compact", description: "Compact" },
  { name: "plan-next", description: "Plan" },
  { name: "preview", description: "Preview" },
];

describe("slash-command completion", () => {
  test("only a leading slash and a name being typed asks for completion", () => {
    assert.equal(slashQuery("/"), "");
    assert.equal(slashQuery("/rev"), "rev");
    assert.equal(slashQuery("/review "), null, "a space ends the name");
    assert.equal(slashQuery("hello /rev"), null);
    assert.equal(slashQuery(""), null);
    assert.equal(slashQuery("/a/b"), null);
  });
  test("names starting with the query come first, then names containing it", () => {
    assert.deepEqual(
      matchCommands(COMMANDS, "rev").map((c) => c.name),
      ["review", "preview"],
    );
    assert.deepEqual(
      matchCommands(COMMANDS, "").map((c) => c.name),
      ["review", "compact", "plan-next", "preview"],
    );
    assert.deepEqual(
      matchCommands(COMMANDS, "P").map((c) => c.name),
      ["plan-next", "preview", "compact"],
    );
    assert.equal(matchCommands(COMMANDS, "", 2).length, 2);
    assert.deepEqual(matchCommands(COMMANDS, "zzz"), []);
  });
  test("choosing fills in the name and a space; arrows wrap", () => {
    assert.equal(completeCommand(COMMANDS[0]!), "/review ");
    assert.equal(moveHighlight(0, 3, "ArrowDown"), 1);
    assert.equal(moveHighlight(2, 3, "ArrowDown"), 0);
    assert.equal(moveHighlight(0, 3, "ArrowUp"), 2);
    assert.equal(moveHighlight(0, 0, "ArrowUp"), 0);
  });
});
