import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Question } from "@kandev/protocol";
import { emptyDraft } from "./answer-model";
import { keysHint, questionGuidance, submitBlocker } from "./guidance";

const single: Question = {
  id: "db",
  kind: "single",
  prompt: "DB?",
  options: [
    { id: "pg", label: "Postgres" },
    { id: "lite", label: "SQLite" },
  ],
};
const multi: Question = { ...single, id: "envs", kind: "multi" };
const companion = { id: "db_custom", title: "Other", description: "Add a note" };
const text: Question = { id: "apiKey", kind: "text", prompt: "Key?", options: [] };

describe("the hint line: how to answer", () => {
  test("kandev tool: pick one, or type your own instead", () => {
    assert.deepEqual(questionGuidance("kandev_tool", single), { key: "pickOneOrType", required: true });
  });
  test("kandev tool questions are single-select even when marked multi (AC-57)", () => {
    assert.equal(questionGuidance("kandev_tool", multi).key, "pickOneOrType");
  });
  test("elicitation single and multi-select without a companion", () => {
    assert.deepEqual(questionGuidance("elicitation", single), { key: "pickOne", required: false });
    assert.deepEqual(questionGuidance("elicitation", multi), { key: "pickAny", required: false });
  });
  test("elicitation with a companion says text can go with the pick (A2)", () => {
    assert.equal(questionGuidance("elicitation", { ...single, companion }).key, "pickOneAndType");
    assert.equal(questionGuidance("elicitation", { ...multi, companion }).key, "pickAnyAndType");
  });
  test("no options: type an answer (AC-56), also for an enum that came back empty", () => {
    assert.deepEqual(questionGuidance("elicitation", text), { key: "typeAnswer", required: false });
    assert.equal(questionGuidance("elicitation", { ...single, options: [] }).key, "typeAnswer");
  });
});

describe("the hint line: required", () => {
  test("every kandev-tool question is required; no elicitation question is (AC-12b, AC-12h)", () => {
    for (const q of [single, multi, text]) {
      assert.equal(questionGuidance("kandev_tool", q).required, true);
      assert.equal(questionGuidance("elicitation", q).required, false);
    }
  });
});

describe("why Submit is disabled", () => {
  const bundle = [single, { ...single, id: "auth" }, { ...single, id: "deploy" }];
  test("an elicitation's Submit never waits (AC-12b)", () => {
    assert.equal(submitBlocker("elicitation", bundle, emptyDraft(bundle)), null);
  });
  test("a lone kandev question asks to be answered", () => {
    assert.deepEqual(submitBlocker("kandev_tool", [single], emptyDraft([single])), { key: "answerThis" });
  });
  test("a kandev bundle names the open questions, 1-based, in order", () => {
    const draft = { ...emptyDraft(bundle), db: { selected: ["pg"], customText: "" } };
    assert.deepEqual(submitBlocker("kandev_tool", bundle, draft), { key: "answerQuestions", numbers: [2, 3] });
  });
  test("typed text counts as an answer; blank text does not", () => {
    const draft = {
      db: { selected: ["pg"], customText: "" },
      auth: { selected: [], customText: "SSO please" },
      deploy: { selected: [], customText: "   " },
    };
    assert.deepEqual(submitBlocker("kandev_tool", bundle, draft), { key: "answerQuestions", numbers: [3] });
  });
  test("a complete bundle has no blocker", () => {
    const draft = Object.fromEntries(bundle.map((q) => [q.id, { selected: ["pg"], customText: "" }]));
    assert.equal(submitBlocker("kandev_tool", bundle, draft), null);
  });
});

test("the keyboard line follows the source (Enter on an option differs, keyboard.ts)", () => {
  assert.equal(keysHint("kandev_tool"), "tool");
  assert.equal(keysHint("elicitation"), "form");
});
