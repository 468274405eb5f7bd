import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Question } from "@kandev/protocol";
import { buildAnswer, canSubmit, emptyDraft, secondsLeft, setCustomText, skipAnswer, toggleOption } from "./answer-model";

const envs: Question = {
  id: "question_1",
  kind: "multi",
  prompt: "Which environments?",
  options: [
    { id: "dev", label: "dev" },
    { id: "staging", label: "staging" },
    { id: "prod", label: "prod" },
  ],
};
const db: Question = {
  id: "question_0",
  kind: "single",
  prompt: "Which database?",
  options: [
    { id: "Postgres", label: "Postgres" },
    { id: "SQLite", label: "SQLite" },
  ],
  companion: { id: "question_0_custom", title: "Other" },
};
const apiKey: Question = { id: "apiKey", kind: "text", prompt: "API key?", options: [] };

describe("elicitation answers", () => {
  test("multi-select accumulates and is sent in declaration order, not click order (AC-55)", () => {
    let d = emptyDraft([envs]);
    d = toggleOption(d, "elicitation", envs, "prod");
    d = toggleOption(d, "elicitation", envs, "dev");
    assert.deepEqual(d.question_1!.selected, ["dev", "prod"]);
    assert.deepEqual(buildAnswer([envs], "elicitation", d).answers, [{ question_id: "question_1", selected_options: ["dev", "prod"] }]);
    d = toggleOption(d, "elicitation", envs, "dev");
    assert.deepEqual(d.question_1!.selected, ["prod"], "deselecting removes");
  });
  test("a zero-option question is answered by text alone (AC-56)", () => {
    const d = setCustomText(emptyDraft([apiKey]), "elicitation", apiKey, "sk-123");
    assert.deepEqual(buildAnswer([apiKey], "elicitation", d).answers, [{ question_id: "apiKey", selected_options: [], custom_text: "sk-123" }]);
  });
  test("text alongside a selection keeps both (A2)", () => {
    let d = toggleOption(emptyDraft([db]), "elicitation", db, "Postgres");
    d = setCustomText(d, "elicitation", db, "  but managed ");
    assert.deepEqual(buildAnswer([db], "elicitation", d).answers, [
      { question_id: "question_0", selected_options: ["Postgres"], custom_text: "but managed" },
    ]);
  });
  test("Submit is always enabled and nothing answered sends no answers (AC-12b)", () => {
    const qs = [db, envs, apiKey];
    assert.equal(canSubmit(qs, "elicitation", emptyDraft(qs)), true);
    assert.deepEqual(buildAnswer(qs, "elicitation", emptyDraft(qs)), { answers: [] });
  });
  test("whitespace-only text counts as no answer (AC-12j)", () => {
    const d = setCustomText(emptyDraft([apiKey]), "elicitation", apiKey, "   ");
    assert.deepEqual(buildAnswer([apiKey], "elicitation", d).answers, []);
  });
  test("a single-select pick replaces the previous one and a second click deselects", () => {
    let d = toggleOption(emptyDraft([db]), "elicitation", db, "Postgres");
    d = toggleOption(d, "elicitation", db, "SQLite");
    assert.deepEqual(d.question_0!.selected, ["SQLite"]);
    d = toggleOption(d, "elicitation", db, "SQLite");
    assert.deepEqual(d.question_0!.selected, []);
  });
  test("an id that is not an option changes nothing", () => {
    const d = emptyDraft([db]);
    assert.equal(toggleOption(d, "elicitation", db, "Oracle"), d);
  });
});

describe("ask-tool answers keep their shipped behaviour (AC-57)", () => {
  const q1: Question = { ...db, companion: undefined };
  const q2: Question = {
    id: "q2",
    kind: "single",
    prompt: "Deploy?",
    options: [
      { id: "a", label: "a" },
      { id: "b", label: "b" },
    ],
  };
  test("a selection and custom text exclude each other", () => {
    let d = toggleOption(emptyDraft([q1]), "kandev_tool", q1, "Postgres");
    d = setCustomText(d, "kandev_tool", q1, "Cockroach");
    assert.deepEqual(d.question_0, { selected: [], customText: "Cockroach" });
    d = toggleOption(d, "kandev_tool", q1, "SQLite");
    assert.deepEqual(d.question_0, { selected: ["SQLite"], customText: "" });
  });
  test("a multi kind is still single-select on this path", () => {
    const m: Question = { ...envs };
    let d = toggleOption(emptyDraft([m]), "kandev_tool", m, "prod");
    d = toggleOption(d, "kandev_tool", m, "dev");
    assert.deepEqual(d.question_1!.selected, ["dev"]);
  });
  test("Submit needs every question answered", () => {
    let d = toggleOption(emptyDraft([q1, q2]), "kandev_tool", q1, "Postgres");
    assert.equal(canSubmit([q1, q2], "kandev_tool", d), false);
    d = setCustomText(d, "kandev_tool", q2, "neither");
    assert.equal(canSubmit([q1, q2], "kandev_tool", d), true);
    assert.deepEqual(buildAnswer([q1, q2], "kandev_tool", d).answers, [
      { question_id: "question_0", selected_options: ["Postgres"] },
      { question_id: "q2", selected_options: [], custom_text: "neither" },
    ]);
  });
  test("custom text is capped at 2,000 characters", () => {
    const d = setCustomText(emptyDraft([q1]), "kandev_tool", q1, "x".repeat(2_500));
    assert.equal(d.question_0!.customText.length, 2_000);
  });
});

describe("skip and deadline", () => {
  test("Skip rejects the bundle (AC-14)", () => {
    assert.deepEqual(skipAnswer(), { answers: [], rejected: true });
  });
  test("seconds left never goes negative and tolerates a missing deadline", () => {
    assert.equal(secondsLeft("2026-01-01T00:01:00Z", Date.parse("2026-01-01T00:00:00Z")), 60);
    assert.equal(secondsLeft("2026-01-01T00:00:00Z", Date.parse("2026-01-01T00:05:00Z")), 0);
    assert.equal(secondsLeft(null, 0), null);
    assert.equal(secondsLeft("garbage", 0), null);
  });
});
