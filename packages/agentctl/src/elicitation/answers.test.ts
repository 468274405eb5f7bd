import { test, describe } from "node:test";
import assert from "node:assert/strict";
import type { Answer, ClarificationAnswer, Question } from "@kandev/protocol";
import { ProtocolError } from "@kandev/protocol";
import { buildResponse } from "./answers.js";
import { formParams, opts, questionsOf } from "../../test/elicitation-helpers.js";

const marker = (questionId: string) => ({ _askUserQuestionCustomAnswer: { questionId, isCustomAnswer: true } });

/** The 0.65.0 two-question AskUserQuestion shape: single + multi, both with marked companions. */
const twoQuestions: Question[] = questionsOf(
  formParams(
    {
      question_0: { type: "string", title: "Datastore", description: "Which database?", oneOf: opts("Postgres", "SQLite", "DynamoDB") },
      question_0_custom: { type: "string", title: "Other", _meta: marker("question_0") },
      question_1: { type: "array", title: "Envs", description: "Which envs?", items: { anyOf: opts("dev", "staging", "prod") } },
      question_1_custom: { type: "string", title: "Other", _meta: marker("question_1") },
    },
    { toolCallId: "tool-44" },
  ),
);
const apiKey: Question[] = questionsOf(formParams({ apiKey: { type: "string" } }, { message: "Enter your API key" }));
const noCompanion: Question[] = questionsOf(formParams({ choice: { type: "string", oneOf: opts("retry_fallback", "cancelled") } }));

function answer(question_id: string, selected_options: string[] = [], custom_text?: string): Answer {
  return custom_text === undefined ? { question_id, selected_options } : { question_id, selected_options, custom_text };
}
function build(questions: Question[], answers: Answer[], extra: Partial<ClarificationAnswer> = {}) {
  return buildResponse(questions, { answers, ...extra });
}
function validationError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ProtocolError);
    assert.equal(err.code, "VALIDATION_ERROR");
    assert.match(err.message, pattern);
    return true;
  });
}

describe("answer -> ACP response", () => {
  test("selecting the option labelled L sends accept with L at the schema's own key (AC-10)", () => {
    assert.deepEqual(build(twoQuestions, [answer("question_0", ["SQLite"])]), { action: "accept", content: { question_0: "SQLite" } });
  });

  test("free text goes to the marked companion's key (answer_freeform), not a suffix-derived key (AC-11)", () => {
    const qs = questionsOf(formParams({ pick: { type: "string", oneOf: opts("a") }, answer_freeform: { type: "string", _meta: marker("pick") } }));
    assert.deepEqual(build(qs, [answer("pick", [], "T")]), { action: "accept", content: { answer_freeform: "T" } });
  });

  test("free text for a question with no companion and no options goes to its own key (AC-11a)", () => {
    assert.deepEqual(build(apiKey, [answer("apiKey", [], "T")]), { action: "accept", content: { apiKey: "T" } });
  });

  test("selecting two options of a multi-select sends a JSON array of the two labels (AC-12)", () => {
    assert.deepEqual(build(twoQuestions, [answer("question_1", ["dev", "prod"])]), {
      action: "accept",
      content: { question_1: ["dev", "prod"] },
    });
  });

  test("multi-select values are sent in declaration order and de-duplicated, whatever the click order (AC-55, F12)", () => {
    assert.deepEqual(build(twoQuestions, [answer("question_1", ["prod", "dev", "prod"])]), {
      action: "accept",
      content: { question_1: ["dev", "prod"] },
    });
  });

  test("free text alongside a selection is trimmed at the companion key (AC-12a)", () => {
    const r = build(twoQuestions, [answer("question_0", ["Postgres"], " CockroachDB ")]);
    assert.equal(r.action === "accept" ? r.content.question_0_custom : undefined, "CockroachDB");
  });

  test("as amended by A2 a selection plus companion text sends both keys (AC-12i)", () => {
    assert.deepEqual(build(twoQuestions, [answer("question_0", ["Postgres"], "  CockroachDB  ")]), {
      action: "accept",
      content: { question_0: "Postgres", question_0_custom: "CockroachDB" },
    });
    assert.deepEqual(build(twoQuestions, [answer("question_1", ["dev"], " qa ")]), {
      action: "accept",
      content: { question_1: ["dev"], question_1_custom: "qa" },
    });
  });

  test("free text only, question with a companion: companion key only", () => {
    assert.deepEqual(build(twoQuestions, [answer("question_0", [], " CockroachDB ")]), {
      action: "accept",
      content: { question_0_custom: "CockroachDB" },
    });
  });

  test("a marked companion on a free-text question receives its text (the marker names where text goes)", () => {
    const qs = questionsOf(formParams({ note: { type: "string" }, note_extra: { type: "string", _meta: marker("note") } }));
    assert.deepEqual(
      qs.map((q) => [q.id, q.kind, q.companion?.id]),
      [["note", "text", "note_extra"]],
    );
    assert.deepEqual(build(qs, [answer("note", [], " hi ")]), { action: "accept", content: { note_extra: "hi" } });
  });

  test("free text on a question with options and no companion is dropped (its key is enum-constrained)", () => {
    assert.deepEqual(build(noCompanion, [answer("choice", [], "maybe later")]), { action: "accept", content: {} });
    assert.deepEqual(build(noCompanion, [answer("choice", ["cancelled"], "because")]), {
      action: "accept",
      content: { choice: "cancelled" },
    });
  });

  test("answering nothing sends accept with empty content, not decline (AC-12b)", () => {
    assert.deepEqual(build(twoQuestions, []), { action: "accept", content: {} });
    assert.deepEqual(build(twoQuestions, [answer("question_0"), answer("question_1", [], "")]), { action: "accept", content: {} });
  });

  test("answering only the second of three questions yields exactly that one key (AC-12h)", () => {
    const three = questionsOf(
      formParams({
        a: { type: "string", description: "A?", oneOf: opts("x", "y") },
        b: { type: "string", description: "B?", oneOf: opts("x", "y") },
        c: { type: "string", description: "C?", oneOf: opts("x", "y") },
      }),
    );
    const r = build(three, [answer("a"), answer("b", ["y"]), answer("c", [], "   ")]);
    assert.deepEqual(r, { action: "accept", content: { b: "y" } });
    assert.deepEqual(Object.keys(r.action === "accept" ? r.content : {}), ["b"]);
  });

  test("whitespace-only free text with no selection contributes no key (AC-12j)", () => {
    assert.deepEqual(build(twoQuestions, [answer("question_0", [], " \t\n ")]), { action: "accept", content: {} });
    assert.deepEqual(build(apiKey, [answer("apiKey", [], "   ")]), { action: "accept", content: {} });
  });

  test("rejecting the bundle sends decline (AC-14)", () => {
    assert.deepEqual(build(twoQuestions, [], { rejected: true, reject_reason: "not now" }), { action: "decline" });
  });

  test("rejected together with answers is a VALIDATION_ERROR (F10)", () => {
    validationError(() => build(twoQuestions, [answer("question_0", ["Postgres"])], { rejected: true }), /rejected/);
  });

  test("an unknown question_id is a VALIDATION_ERROR (F10)", () => {
    validationError(() => build(twoQuestions, [answer("question_9", ["Postgres"])]), /unknown question_id "question_9"/);
    // A companion key is not a question id.
    validationError(() => build(twoQuestions, [answer("question_0_custom", [], "x")]), /unknown question_id/);
  });

  test("several options on a single-select is a VALIDATION_ERROR (a repeated pick is one option) (F10)", () => {
    validationError(() => build(twoQuestions, [answer("question_0", ["Postgres", "SQLite"])]), /single-select/);
    assert.deepEqual(build(twoQuestions, [answer("question_0", ["SQLite", "SQLite"])]), {
      action: "accept",
      content: { question_0: "SQLite" },
    });
  });

  test("a value that is not an option const is a VALIDATION_ERROR (labels are not ids; text questions take none) (F10)", () => {
    validationError(() => build(twoQuestions, [answer("question_0", ["postgres"])]), /"postgres" is not an option/);
    validationError(() => build(apiKey, [answer("apiKey", ["sk-1"])]), /not an option/);
    const titled = questionsOf(formParams({ q: { type: "string", oneOf: [{ const: "v1", title: "Version one" }] } }));
    validationError(() => build(titled, [answer("q", ["Version one"])]), /not an option/);
  });

  test("custom text over 10,000 characters is a VALIDATION_ERROR; exactly 10,000 is accepted (F10)", () => {
    validationError(() => build(apiKey, [answer("apiKey", [], "x".repeat(10_001))]), /10000 characters/);
    const ok = build(apiKey, [answer("apiKey", [], "x".repeat(10_000))]);
    assert.equal(ok.action === "accept" ? (ok.content.apiKey as string).length : 0, 10_000);
  });

  test("two answers for one question is a VALIDATION_ERROR (F10)", () => {
    validationError(() => build(twoQuestions, [answer("question_0", ["SQLite"]), answer("question_0")]), /more than once/);
  });

  test("content never carries null or empty string, and __proto__ keys are written as own data", () => {
    const raw = JSON.parse('{"mode":"form","sessionId":"s","message":"m","requestedSchema":{"properties":{"__proto__":{"type":"string"}}}}');
    const r = build(questionsOf(raw), [answer("__proto__", [], "v")]);
    assert.equal(r.action, "accept");
    if (r.action !== "accept") return;
    assert.deepEqual(Object.keys(r.content), ["__proto__"]);
    assert.equal(JSON.stringify(r.content), '{"__proto__":"v"}');
    assert.equal(Object.getPrototypeOf(r.content), Object.prototype);
  });
});
