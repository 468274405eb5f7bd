import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Question } from "@kandev/protocol";
import { buildAnswer } from "./answer-model";
import {
  advance,
  answeredSteps,
  collapse,
  currentQuestion,
  expand,
  goTo,
  initialOverlay,
  pickOption,
  submittable,
  textBoxFor,
  typeText,
} from "./overlay-state";

const colour: Question = {
  id: "question_0",
  kind: "single",
  prompt: "Colour?",
  options: [
    { id: "Red", label: "Red" },
    { id: "Blue", label: "Blue" },
  ],
  companion: { id: "question_0_custom", title: "Other", description: "Type your own answer" },
};
const platforms: Question = {
  id: "question_1",
  kind: "multi",
  prompt: "Platforms?",
  options: [
    { id: "Web", label: "Web" },
    { id: "iOS", label: "iOS" },
    { id: "Android", label: "Android" },
  ],
};
const db: Question = {
  id: "db",
  kind: "single",
  prompt: "DB?",
  options: [
    { id: "pg", label: "Postgres" },
    { id: "lite", label: "SQLite" },
  ],
};
const auth: Question = {
  id: "auth",
  kind: "single",
  prompt: "Auth?",
  options: [
    { id: "pw", label: "Password" },
    { id: "sso", label: "SSO" },
  ],
};

describe("ask-tool flow (AC-57: unchanged)", () => {
  test("a single question submits on pick", () => {
    const t = pickOption(initialOverlay("kandev_tool", [db]), 1);
    assert.equal(t.submit, true);
    assert.deepEqual(buildAnswer([db], "kandev_tool", t.state.draft).answers, [{ question_id: "db", selected_options: ["lite"] }]);
  });
  test("in a bundle a pick moves on, and Submit waits for every answer", () => {
    let s = initialOverlay("kandev_tool", [db, auth]);
    assert.equal(submittable(s), false);
    let t = pickOption(s, 0);
    assert.equal(t.submit, false);
    s = t.state;
    assert.equal(s.step, 1, "moved to the second question");
    assert.equal(submittable(s), false);
    t = pickOption(s, 1);
    assert.equal(t.state.step, 1, "the last question stays");
    assert.equal(t.submit, false, "a bundle never submits on pick");
    assert.equal(submittable(t.state), true);
    assert.equal(advance(t.state).submit, true, "Enter submits once complete");
  });
  test("Enter on an incomplete bundle's last question goes to the first unanswered one", () => {
    let s = goTo(initialOverlay("kandev_tool", [db, auth]), 1);
    s = pickOption(s, 0).state;
    const t = advance(s);
    assert.equal(t.submit, false);
    assert.equal(t.state.step, 0);
  });
  test("typing replaces a pick; a pick replaces typed text", () => {
    let s = pickOption(initialOverlay("kandev_tool", [db, auth]), 0).state;
    s = goTo(s, 0);
    s = typeText(s, "Cockroach");
    assert.deepEqual(s.draft.db, { selected: [], customText: "Cockroach" });
    s = pickOption(s, 1).state;
    assert.deepEqual(s.draft.db, { selected: ["lite"], customText: "" });
  });
  test("every kandev question offers a custom answer box", () => {
    assert.equal(textBoxFor("kandev_tool", db), "custom");
  });
});

describe("elicitation flow", () => {
  test("a single-select pick in a bundle moves on, like the kandev tool's, but never submits", () => {
    const t = pickOption(initialOverlay("elicitation", [colour, platforms]), 0);
    assert.equal(t.submit, false);
    assert.equal(t.state.step, 1, "moved to the second question");
    assert.deepEqual(t.state.draft.question_0?.selected, ["Red"]);
  });
  test("a pick on the last (or only) question stays and does not submit: Submit is explicit", () => {
    const lone = pickOption(initialOverlay("elicitation", [colour]), 1);
    assert.deepEqual([lone.submit, lone.state.step], [false, 0]);
    const last = pickOption(goTo(initialOverlay("elicitation", [db, colour]), 1), 0);
    assert.deepEqual([last.submit, last.state.step], [false, 1]);
  });
  test("a multi-select pick never moves on, so picks accumulate (AC-55)", () => {
    const t = pickOption(initialOverlay("elicitation", [platforms, colour]), 1);
    assert.deepEqual([t.submit, t.state.step], [false, 0]);
  });
  test("un-picking a single-select option stays on the question", () => {
    let s = pickOption(initialOverlay("elicitation", [colour, platforms]), 0).state;
    s = goTo(s, 0);
    const t = pickOption(s, 0);
    assert.deepEqual(t.state.draft.question_0?.selected, []);
    assert.equal(t.state.step, 0);
  });
  test("a note typed before the pick is kept when the pick moves on (A2)", () => {
    let s = typeText(initialOverlay("elicitation", [colour, platforms]), "darker");
    s = pickOption(s, 1).state;
    assert.equal(s.step, 1);
    assert.deepEqual(s.draft.question_0, { selected: ["Blue"], customText: "darker" });
  });
  test("Enter moves on, then submits even with nothing answered (AC-12b)", () => {
    const s = advance(initialOverlay("elicitation", [colour, platforms])).state;
    assert.equal(s.step, 1);
    assert.equal(advance(s).submit, true);
    assert.deepEqual(buildAnswer([colour, platforms], "elicitation", s.draft), { answers: [] });
  });
  test("multi-select accumulates in declaration order from digit picks (AC-55)", () => {
    let s = goTo(initialOverlay("elicitation", [colour, platforms]), 1);
    s = pickOption(s, 2).state;
    s = pickOption(s, 0).state;
    assert.deepEqual(s.draft.question_1?.selected, ["Web", "Android"]);
    assert.deepEqual(answeredSteps(s), [false, true]);
  });
  test("a note keeps the pick (A2)", () => {
    let s = pickOption(initialOverlay("elicitation", [colour]), 1).state;
    s = typeText(s, " darker ");
    assert.deepEqual(buildAnswer([colour], "elicitation", s.draft).answers, [
      { question_id: "question_0", selected_options: ["Blue"], custom_text: "darker" },
    ]);
  });
  test("text boxes appear only where the text can go on the wire", () => {
    assert.equal(textBoxFor("elicitation", colour), "companion");
    assert.equal(textBoxFor("elicitation", platforms), "none");
    assert.equal(textBoxFor("elicitation", { id: "apiKey", kind: "text", prompt: "Key", options: [] }), "answer");
    assert.equal(textBoxFor("elicitation", { ...platforms, options: [] }), "answer", "an enum that came back empty");
  });
});

describe("resuming a saved draft", () => {
  test("the draft and the step come back as saved", () => {
    const s = initialOverlay("kandev_tool", [db, auth], { step: 1, draft: { db: { selected: ["lite"], customText: "" } } });
    assert.equal(s.step, 1);
    assert.deepEqual(s.draft.db, { selected: ["lite"], customText: "" });
    assert.deepEqual(s.draft.auth, { selected: [], customText: "" }, "questions the draft lacks start empty");
    assert.equal(s.collapsed, false);
  });
  test("a step beyond the questions is clamped", () => {
    assert.equal(initialOverlay("elicitation", [colour], { step: 5, draft: {} }).step, 0);
  });
});

describe("navigation and collapse", () => {
  test("an option index that does not exist changes nothing", () => {
    const s = initialOverlay("elicitation", [colour]);
    assert.deepEqual(pickOption(s, 7), { state: s, submit: false });
  });
  test("goTo clamps and currentQuestion follows", () => {
    const s = initialOverlay("elicitation", [colour, platforms]);
    assert.equal(currentQuestion(goTo(s, 9))?.id, "question_1");
    assert.equal(goTo(s, -3), s);
  });
  test("Escape only collapses: the draft and step survive and expanding restores them", () => {
    let s = pickOption(initialOverlay("elicitation", [colour, platforms]), 1).state;
    const c = collapse(s);
    assert.equal(c.collapsed, true);
    assert.equal(collapse(c), c);
    s = expand(c);
    assert.equal(s.collapsed, false);
    assert.equal(s.step, 1);
    assert.deepEqual(s.draft.question_0?.selected, ["Blue"]);
  });
});
