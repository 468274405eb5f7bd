import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { LIMITS, QuestionSchema } from "@kandev/protocol";
import { classifyProperty } from "./schema-map.js";
import { formParams, mapRaw, opts, questionsOf } from "../../test/elicitation-helpers.js";

const marker = (questionId: unknown) => ({ _askUserQuestionCustomAnswer: { questionId, isCustomAnswer: true } });
const companion = (questionId: unknown, extra: Record<string, unknown> = {}) => ({
  type: "string",
  title: "Other",
  description: "Type your own answer instead of choosing an option above (optional).",
  _meta: marker(questionId),
  ...extra,
});

function declineReason(raw: unknown): string {
  const r = mapRaw(raw);
  return r.ok ? "mapped" : r.reason;
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i -= 1) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe("schema -> questions (rules 1-5)", () => {
  test("one oneOf property with three options plus its companion maps to one question (AC-04)", () => {
    const qs = questionsOf(
      formParams(
        {
          question_0: { type: "string", title: "Datastore", oneOf: opts("Postgres", "SQLite", "DynamoDB") },
          question_0_custom: companion("question_0"),
        },
        { toolCallId: "tool-42", message: "Which database should the new service use?" },
      ),
    );
    assert.equal(qs.length, 1);
    const q = qs[0]!;
    assert.equal(q.id, "question_0");
    assert.equal(q.kind, "single");
    assert.deepEqual(
      q.options.map((o) => o.id),
      ["Postgres", "SQLite", "DynamoDB"],
    );
    // F6: the companion's own labels travel with the question.
    assert.deepEqual(q.companion, {
      id: "question_0_custom",
      title: "Other",
      description: "Type your own answer instead of choosing an option above (optional).",
    });
  });

  test("the MCP passthrough apiKey string maps to one free-text question with zero options (AC-04a)", () => {
    const mapped = mapRaw(formParams({ apiKey: { type: "string" } }, { message: "Enter your API key" }));
    assert.ok(mapped.ok);
    assert.deepEqual(mapped.value.questions, [{ id: "apiKey", kind: "text", prompt: "Enter your API key", options: [] }]);
    assert.equal(mapped.value.toolCallId, null);
  });

  test("with two questions each prompt is its description and the message is not used (AC-05)", () => {
    const qs = questionsOf(
      formParams(
        {
          question_0: { type: "string", title: "A", description: "First?", oneOf: opts("x", "y") },
          question_1: { type: "string", title: "B", description: "Second?", oneOf: opts("x", "y") },
        },
        { message: "Please answer the following questions." },
      ),
    );
    assert.deepEqual(
      qs.map((q) => q.prompt),
      ["First?", "Second?"],
    );
  });

  test("with exactly one question and no description the prompt is the request message (AC-06)", () => {
    const qs = questionsOf(formParams({ q: { type: "string", title: "T", oneOf: opts("a", "b") } }, { message: "Pick one" }));
    assert.equal(qs[0]?.prompt, "Pick one");
    assert.equal(qs[0]?.title, "T");
  });

  test("prompt falls back description > message (one question only) > title > key (D10)", () => {
    const two = questionsOf(
      formParams({ a: { type: "string", title: "Title A", oneOf: opts("x") }, b: { type: "string", oneOf: opts("x") } }, { message: "M" }),
    );
    assert.deepEqual(
      two.map((q) => q.prompt),
      ["Title A", "b"],
    );
    const blankMessage = questionsOf(formParams({ k: { type: "string", title: "T" } }, { message: "   " }));
    assert.equal(blankMessage[0]?.prompt, "T");
    const bare = questionsOf(formParams({ k: { type: "string", description: "  " } }, { message: "" }));
    assert.equal(bare[0]?.prompt, "k");
    assert.equal(bare[0]?.title, undefined);
  });

  test("an array property with items.anyOf maps to one multi-select question, one option per entry (AC-07)", () => {
    const qs = questionsOf(
      formParams({
        question_1: { type: "array", title: "Envs", description: "Where?", items: { anyOf: opts("dev", "staging", "prod") } },
      }),
    );
    assert.equal(qs.length, 1);
    assert.equal(qs[0]?.kind, "multi");
    assert.deepEqual(
      qs[0]?.options.map((o) => o.id),
      ["dev", "staging", "prod"],
    );
  });

  test("the refusal-fallback choice maps to one two-option question prompted by the message (AC-12c)", () => {
    const message = "Fable declined this request (safety). Retry with Opus?\n\nSome guidance text from the API.";
    const qs = questionsOf(
      formParams(
        {
          choice: {
            type: "string",
            oneOf: [
              { const: "retry_fallback", title: "Retry with Opus", description: "The session continues on Opus." },
              { const: "cancelled", title: "Keep the refusal", description: "You can send a new message." },
            ],
          },
        },
        { message },
      ),
    );
    assert.deepEqual(qs, [
      {
        id: "choice",
        kind: "single",
        prompt: message,
        options: [
          { id: "retry_fallback", label: "Retry with Opus", description: "The session continues on Opus." },
          { id: "cancelled", label: "Keep the refusal", description: "You can send a new message." },
        ],
      },
    ]);
  });

  test("maps eleven questions in the same order one hundred times (AC-12d)", () => {
    const keys = Array.from({ length: 11 }, (_, i) => `question_${i}`);
    const expected = [...keys];
    for (let run = 0; run < 100; run += 1) {
      const properties: Record<string, unknown> = {};
      for (const k of shuffled(keys, run + 1)) properties[k] = { type: "string", description: k, oneOf: opts("a", "b") };
      const order = questionsOf(formParams(properties)).map((q) => q.id);
      assert.deepEqual(order, expected, `run ${run}`);
      assert.ok(order.indexOf("question_2") < order.indexOf("question_10"));
    }
  });

  test("a companion naming no property in the schema is ignored and is not a question (AC-12e)", () => {
    const qs = questionsOf(formParams({ question_0: { type: "string", oneOf: opts("a", "b") }, question_9_custom: companion("question_9") }));
    assert.deepEqual(
      qs.map((q) => q.id),
      ["question_0"],
    );
    assert.equal(qs[0]?.companion, undefined);
    // A companion whose marker carries no usable questionId is an orphan too.
    for (const bad of [undefined, 5, ""]) {
      const only = mapRaw(formParams({ c: companion(bad) }));
      assert.equal(only.ok ? "mapped" : only.reason, "no_questions");
    }
  });

  test("of two companions naming one question, the one whose key sorts first wins (D2)", () => {
    const qs = questionsOf(
      formParams({
        q: { type: "string", oneOf: opts("a") },
        zeta_note: companion("q", { title: "Zeta" }),
        alpha_note: companion("q", { title: "Alpha" }),
      }),
    );
    assert.equal(qs.length, 1);
    assert.equal(qs[0]?.companion?.id, "alpha_note");
    assert.equal(qs[0]?.companion?.title, "Alpha");
  });

  test("a marked companion with an arbitrary name is found by its marker, not by suffix (AC-11)", () => {
    const qs = questionsOf(formParams({ pick: { type: "string", oneOf: opts("a", "b") }, answer_freeform: companion("pick") }));
    assert.equal(qs.length, 1);
    assert.equal(qs[0]?.companion?.id, "answer_freeform");
  });

  test("an unmarked <key>_custom is the companion only when the request has a toolCallId (A1)", () => {
    const props = {
      question_0: { type: "string", title: "Colour", oneOf: opts("Red", "Blue") },
      question_0_custom: { type: "string", title: "Other", description: "Type your own answer (optional)." },
    };
    const withTool = questionsOf(formParams(props, { toolCallId: "toolu_1" }));
    assert.deepEqual(
      withTool.map((q) => q.id),
      ["question_0"],
    );
    assert.deepEqual(withTool[0]?.companion, { id: "question_0_custom", title: "Other", description: "Type your own answer (optional)." });
    // MCP passthrough never has a toolCallId: arbitrary names are untouched, the string is a question.
    const withoutTool = questionsOf(formParams(props));
    assert.deepEqual(
      withoutTool.map((q) => [q.id, q.kind]),
      [
        ["question_0", "single"],
        ["question_0_custom", "text"],
      ],
    );
    assert.equal(withoutTool[0]?.companion, undefined);
  });

  test("applies only to a rule-1/2 sibling without a marked companion, and only to plain strings (A1)", () => {
    // Sibling is free text (rule 4): no A1.
    const textSibling = questionsOf(formParams({ a: { type: "string" }, a_custom: { type: "string" } }, { toolCallId: "t" }));
    assert.deepEqual(
      textSibling.map((q) => q.id),
      ["a", "a_custom"],
    );
    // Multi-select sibling: A1 applies.
    const multi = questionsOf(
      formParams({ m: { type: "array", items: { anyOf: opts("x", "y") } }, m_custom: { type: "string" } }, { toolCallId: "t" }),
    );
    assert.deepEqual(
      multi.map((q) => [q.id, q.companion?.id]),
      [["m", "m_custom"]],
    );
    // A marked companion wins; the unmarked <key>_custom is then a question of its own.
    const marked = questionsOf(
      formParams({ q: { type: "string", oneOf: opts("x") }, q_note: companion("q"), q_custom: { type: "string" } }, { toolCallId: "t" }),
    );
    assert.deepEqual(
      marked.map((q) => [q.id, q.companion?.id]),
      [
        ["q", "q_note"],
        ["q_custom", undefined],
      ],
    );
    // A <key>_custom that has options is a question, not a companion.
    const selectCustom = questionsOf(
      formParams({ q: { type: "string", oneOf: opts("x") }, q_custom: { type: "string", oneOf: opts("y") } }, { toolCallId: "t" }),
    );
    assert.deepEqual(
      selectCustom.map((q) => q.id),
      ["q", "q_custom"],
    );
  });

  test("rule order: a property with oneOf is a question even when it carries a marker (rule 1 before 3)", () => {
    const qs = questionsOf(formParams({ a: { type: "string", oneOf: opts("x"), _meta: marker("b") }, b: { type: "string", oneOf: opts("y") } }));
    assert.deepEqual(
      qs.map((q) => q.id),
      ["a", "b"],
    );
    assert.equal(qs[1]?.companion, undefined);
  });

  test("rule 5: numbers, booleans, unknown types and non-objects are ignored; the rest still map", () => {
    const qs = questionsOf(
      formParams({
        n: { type: "number" },
        i: { type: "integer" },
        b: { type: "boolean" },
        x: { type: "_vendor" },
        nothing: {},
        s: "string",
        nul: null,
        arr: { type: "array", items: { type: "number" } },
        arrNoItems: { type: "array" },
        ok: { type: "string" },
      }),
    );
    assert.deepEqual(
      qs.map((q) => q.id),
      ["ok"],
    );
  });

  test("options keep declaration order; label is title or const; description kept; _meta previews dropped", () => {
    const qs = questionsOf(
      formParams({
        q: {
          type: "string",
          oneOf: [
            { const: "z", title: "Zed", description: "last letter", _meta: { "_claude/askUserQuestionOption": { preview: "<b>" } } },
            { const: "a" },
            { const: "m", title: "  ", description: "" },
          ],
        },
      }),
    );
    assert.deepEqual(qs[0]?.options, [
      { id: "z", label: "Zed", description: "last letter" },
      { id: "a", label: "a" },
      { id: "m", label: "m" },
    ]);
  });

  test("a repeated const keeps its first declaration; an empty const is dropped", () => {
    const qs = questionsOf(formParams({ q: { type: "string", oneOf: [{ const: "a", title: "A1" }, { const: "a", title: "A2" }, { const: "" }] } }));
    assert.deepEqual(qs[0]?.options, [{ id: "a", label: "A1" }]);
  });

  test("a malformed oneOf makes the property ignored, never a free-text question", () => {
    for (const oneOf of ["x", [{ title: "no const" }], [{ const: 5 }], [null], {}]) {
      assert.equal(declineReason(formParams({ q: { type: "string", oneOf } })), "no_questions", JSON.stringify(oneOf));
    }
  });

  test("untitled enums map like oneOf/anyOf with the value as id and label", () => {
    const qs = questionsOf(
      formParams({ s: { type: "string", enum: ["a", "b"] }, m: { type: "array", items: { type: "string", enum: ["x", "y"] } } }),
    );
    assert.deepEqual(
      qs.map((q) => [q.id, q.kind, q.options]),
      [
        [
          "m",
          "multi",
          [
            { id: "x", label: "x" },
            { id: "y", label: "y" },
          ],
        ],
        [
          "s",
          "single",
          [
            { id: "a", label: "a" },
            { id: "b", label: "b" },
          ],
        ],
      ],
    );
    assert.equal(declineReason(formParams({ s: { type: "string", enum: ["a", 1] } })), "no_questions");
  });

  test("a rule-1/2 question whose enum came back empty is a text question with zero options (D10)", () => {
    const qs = questionsOf(formParams({ s: { type: "string", oneOf: [] }, m: { type: "array", items: { anyOf: [] } } }));
    assert.deepEqual(
      qs.map((q) => [q.id, q.kind, q.options.length]),
      [
        ["m", "text", 0],
        ["s", "text", 0],
      ],
    );
  });

  test("empty, absent or only-unrecognised properties are declined (AC-18)", () => {
    assert.equal(declineReason(formParams({})), "no_questions");
    assert.equal(declineReason({ mode: "form", sessionId: "s", message: "m", requestedSchema: { type: "object" } }), "no_questions");
    assert.equal(declineReason(formParams({ n: { type: "number" }, b: { type: "boolean" } })), "no_questions");
    assert.equal(declineReason(formParams({ c: companion("nobody") })), "no_questions");
  });

  test("bounds: more than 64 properties or more than 100 options on one property is declined (AC-18)", () => {
    const props = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, { type: "string" }]));
    assert.equal(questionsOf(formParams(props(LIMITS.maxQuestions))).length, LIMITS.maxQuestions);
    assert.equal(declineReason(formParams(props(LIMITS.maxQuestions + 1))), "too_many_properties");
    const labels = (n: number) => Array.from({ length: n }, (_, i) => `o${i}`);
    assert.equal(questionsOf(formParams({ q: { type: "string", oneOf: opts(...labels(100)) } }))[0]?.options.length, 100);
    assert.equal(declineReason(formParams({ q: { type: "string", oneOf: opts(...labels(101)) } })), "too_many_options");
    assert.equal(declineReason(formParams({ q: { type: "array", items: { anyOf: opts(...labels(101)) } } })), "too_many_options");
    // Even when another property alone would map.
    assert.equal(declineReason(formParams({ ok: { type: "string" }, q: { type: "string", enum: labels(101) } })), "too_many_options");
  });

  test("limits: unanswerable keys or consts are ignored, display text is clipped, questions fit QuestionSchema", () => {
    const longKey = "k".repeat(LIMITS.maxIdChars + 1);
    const longConst = "c".repeat(LIMITS.maxIdChars + 1);
    const qs = questionsOf(
      formParams(
        {
          [longKey]: { type: "string" },
          badConst: { type: "string", oneOf: [{ const: longConst, title: "x" }] },
          q: { type: "string", title: "t".repeat(5000), oneOf: [{ const: "a", title: "l".repeat(5000), description: "d".repeat(30000) }] },
        },
        { message: "m".repeat(30000) },
      ),
    );
    assert.deepEqual(
      qs.map((q) => q.id),
      ["q"],
    );
    const q = qs[0]!;
    assert.equal(q.title?.length, LIMITS.maxLabelChars);
    assert.equal(q.prompt.length, LIMITS.maxPromptChars);
    assert.equal(q.options[0]?.label.length, LIMITS.maxLabelChars);
    assert.ok(q.title?.endsWith("…"));
    QuestionSchema.parse(q);
  });

  test("a property named __proto__ becomes a question with that id", () => {
    const raw = JSON.parse(
      '{"mode":"form","sessionId":"s","message":"m","requestedSchema":{"properties":{"__proto__":{"type":"string","oneOf":[{"const":"a","title":"A"}]}}}}',
    );
    const qs = questionsOf(raw);
    assert.equal(qs.length, 1);
    assert.equal(qs[0]?.id, "__proto__");
  });

  test("classifyProperty never throws on hostile values", () => {
    const hostile: unknown[] = [undefined, null, 0, "s", [], () => 1, { type: {} }, { type: "string", oneOf: null, enum: null, _meta: 5 }];
    for (const value of hostile) assert.doesNotThrow(() => classifyProperty("k", value));
  });
});
