// Property tests (fast-check): the mapping and the answer building hold their invariants for any
// input, not only for the examples the other tests pick.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Answer, Question } from "@kandev/protocol";
import { ProtocolError, QuestionSchema } from "@kandev/protocol";
import { buildResponse } from "./answers.js";
import { compareKeys, sortKeys } from "./key-order.js";
import { mapRaw } from "../../test/elicitation-helpers.js";

const DECLINE_REASONS = new Set([
  "not_an_object",
  "url_mode",
  "unsupported_mode",
  "request_scope",
  "ambiguous_scope",
  "missing_session",
  "malformed",
  "too_many_properties",
  "too_many_options",
  "no_questions",
]);

/** Keys that matter (D1 traps, prototype names) mixed with arbitrary strings, lone surrogates included. */
const keyArb = fc.oneof(
  fc.constantFrom(
    "question_0",
    "question_1",
    "question_2",
    "question_10",
    "question_0_custom",
    "question_1_custom",
    "__proto__",
    "constructor",
    "toString",
    "42",
    "7",
    "apiKey",
    "apiKey_custom",
    "step1_field2",
    "100_items",
    "q01",
    "q1",
    "",
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 6 }),
);

const labelArb = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("  ", "", "Postgres", "Search, full-text"));
const optionArb = fc.oneof(
  fc.record(
    { const: fc.oneof(labelArb, fc.anything()), title: fc.oneof(labelArb, fc.anything()), description: labelArb },
    { requiredKeys: ["const"] },
  ),
  fc.anything(),
);
const optionsArb = fc.oneof(fc.array(optionArb, { maxLength: 6 }), fc.anything());
const labelsArb = fc.record({ title: labelArb, description: labelArb }, { requiredKeys: [] });

const propertyArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(labelsArb, optionsArb).map(([l, oneOf]) => ({ type: "string", ...l, oneOf })),
  fc.tuple(labelsArb, optionsArb).map(([l, anyOf]) => ({ type: "array", ...l, items: { anyOf } })),
  fc.tuple(labelsArb, fc.array(fc.oneof(labelArb, fc.anything()), { maxLength: 5 })).map(([l, e]) => ({ type: "string", ...l, enum: e })),
  fc.tuple(labelsArb, fc.oneof(keyArb, fc.anything())).map(([l, questionId]) => ({
    type: "string",
    ...l,
    _meta: { _askUserQuestionCustomAnswer: { questionId, isCustomAnswer: true } },
  })),
  labelsArb.map((l) => ({ type: "string", ...l })),
  fc.constantFrom({ type: "number" }, { type: "integer" }, { type: "boolean" }, { type: "_vendor" }, {}, { type: "array" }),
  fc.anything(),
);

/** Builds a JSON-like object with own properties, even for keys such as `__proto__`. */
function objectFrom(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

const entriesArb = fc.uniqueArray(fc.tuple(keyArb, propertyArb), { selector: ([k]) => k, maxLength: 12 });

const formArb = fc
  .record({
    entries: entriesArb,
    toolCallId: fc.option(fc.constantFrom("toolu_1", "t"), { nil: undefined }),
    message: fc.oneof(labelArb, fc.constant("Please answer the following questions.")),
  })
  .map(({ entries, toolCallId, message }) => ({
    entries,
    raw: {
      mode: "form",
      sessionId: "sess-1",
      ...(toolCallId === undefined ? {} : { toolCallId }),
      message,
      requestedSchema: { type: "object", properties: objectFrom(entries) },
    },
  }));

/** Checks every invariant of a successful mapping against the schema keys it came from. */
function assertMappedWell(questions: readonly Question[], schemaKeys: ReadonlySet<string>): void {
  assert.ok(questions.length >= 1);
  const ids = questions.map((q) => q.id);
  assert.deepEqual(ids, sortKeys(ids), "questions are in D1 order");
  const companionIds = questions.flatMap((q) => (q.companion ? [q.companion.id] : []));
  const all = [...ids, ...companionIds];
  assert.equal(new Set(all).size, all.length, "question and companion keys are distinct");
  for (const key of all) assert.ok(schemaKeys.has(key), `${key} is a schema key`);
  for (const q of questions) {
    QuestionSchema.parse(q);
    assert.equal(new Set(q.options.map((o) => o.id)).size, q.options.length);
    assert.equal(q.kind === "text", q.options.length === 0);
  }
}

describe("mapping properties", () => {
  test("arbitrary params never throw: they map to valid questions or decline with a known reason (AC-18)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          formArb.map((f) => f.raw),
        ),
        (raw) => {
          const r = mapRaw(raw);
          if (!r.ok) assert.ok(DECLINE_REASONS.has(r.reason), r.reason);
        },
      ),
      { numRuns: 1000 },
    );
  });

  test("random and malformed schemas either map (with every question a schema key, D1-ordered) or decline", () => {
    fc.assert(
      fc.property(formArb, ({ entries, raw }) => {
        const r = mapRaw(raw);
        if (!r.ok) {
          assert.ok(["no_questions", "too_many_options"].includes(r.reason), r.reason);
          return;
        }
        assertMappedWell(r.value.questions, new Set(entries.map(([k]) => k)));
      }),
      { numRuns: 1000 },
    );
  });

  test("the mapping does not depend on the order properties are declared in (AC-12d)", () => {
    fc.assert(
      fc.property(
        formArb.chain(({ entries, raw }) =>
          fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }).map((shuffled) => ({ raw, shuffled })),
        ),
        ({ raw, shuffled }) => {
          const again = { ...raw, requestedSchema: { type: "object", properties: objectFrom(shuffled) } };
          assert.deepEqual(mapRaw(again), mapRaw(raw));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("order properties (D1)", () => {
  const anyKey = fc.oneof(keyArb, fc.string({ unit: "binary" }), fc.stringMatching(/^[a-z_]{0,3}[0-9]{0,25}$/));

  test("is reflexive and antisymmetric, and equal only for identical keys (D1)", () => {
    fc.assert(
      fc.property(anyKey, anyKey, (a, b) => {
        assert.equal(compareKeys(a, a), 0);
        assert.ok(Math.sign(compareKeys(a, b)) === -Math.sign(compareKeys(b, a)));
        assert.equal(compareKeys(a, b) === 0, a === b);
      }),
      { numRuns: 5000 },
    );
  });

  test("is transitive (D1)", () => {
    fc.assert(
      fc.property(anyKey, anyKey, anyKey, (a, b, c) => {
        const [x, y, z] = [a, b, c].sort(compareKeys) as [string, string, string];
        assert.ok(compareKeys(x, y) <= 0 && compareKeys(y, z) <= 0 && compareKeys(x, z) <= 0);
        if (compareKeys(a, b) <= 0 && compareKeys(b, c) <= 0) assert.ok(compareKeys(a, c) <= 0);
      }),
      { numRuns: 5000 },
    );
  });

  test("sorting is permutation-invariant (a total, stable order) (D1)", () => {
    fc.assert(
      fc.property(
        fc
          .uniqueArray(anyKey, { maxLength: 30 })
          .chain((keys) => fc.shuffledSubarray(keys, { minLength: keys.length, maxLength: keys.length }).map((perm) => [keys, perm] as const)),
        ([keys, perm]) => {
          assert.deepEqual(sortKeys(perm), sortKeys(keys));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("answer properties", () => {
  /** A form that maps, with a random answer that is valid for its questions. */
  const answeredArb = formArb
    .map((f) => ({ ...f, mapped: mapRaw(f.raw) }))
    .filter((f) => f.mapped.ok)
    .chain((f) => {
      const questions = (f.mapped.ok ? f.mapped.value.questions : []) as Question[];
      const perQuestion = questions.map((q) =>
        fc.option(
          fc.record({
            picks:
              q.kind === "single"
                ? fc.subarray(
                    q.options.map((o) => o.id),
                    { maxLength: 1 },
                  )
                : fc.shuffledSubarray(q.options.map((o) => o.id)),
            text: fc.option(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("  ", " x ", "")), { nil: undefined }),
          }),
          { nil: undefined },
        ),
      );
      return fc.tuple(...perQuestion).map((picked) => ({ ...f, questions, picked }));
    });

  test("content keys are always schema keys and never carry null, empty text, or empty arrays", () => {
    fc.assert(
      fc.property(answeredArb, ({ entries, questions, picked }) => {
        const answers: Answer[] = [];
        questions.forEach((q, i) => {
          const p = picked[i];
          if (p === undefined) return;
          answers.push({ question_id: q.id, selected_options: p.picks, ...(p.text === undefined ? {} : { custom_text: p.text }) });
        });
        const r = buildResponse(questions, { answers });
        assert.equal(r.action, "accept");
        if (r.action !== "accept") return;
        const schemaKeys = new Set(entries.map(([k]) => k));
        for (const [key, value] of Object.entries(r.content)) {
          assert.ok(schemaKeys.has(key), `${key} is a schema key`);
          assert.notEqual(value, null);
          const q = questions.find((x) => x.id === key);
          if (typeof value === "string") {
            assert.ok(value.length > 0, "never an empty string");
            // A single-select pick is the option const verbatim; anything else is trimmed free text.
            const isPick = q !== undefined && q.kind === "single" && q.options.some((o) => o.id === value);
            if (!isPick) assert.equal(value, value.trim());
          } else {
            assert.ok(Array.isArray(value) && value.length > 0 && new Set(value).size === value.length);
            assert.ok(q && q.kind === "multi");
            const order = q.options.map((o) => o.id);
            assert.deepEqual(
              value,
              order.filter((id) => value.includes(id)),
              "declaration order",
            );
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  test("arbitrary answers either build a response or fail with VALIDATION_ERROR, never anything else", () => {
    const answerArb = fc.record({
      question_id: fc.oneof(keyArb, fc.constantFrom("question_0")),
      selected_options: fc.array(fc.oneof(labelArb, fc.constantFrom("Postgres", "a")), { maxLength: 3 }),
      custom_text: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        answeredArb,
        fc.array(answerArb, { maxLength: 4 }),
        fc.option(fc.boolean(), { nil: undefined }),
        ({ questions }, answers, rejected) => {
          const cleaned = answers.map((x) =>
            x.custom_text === undefined ? { question_id: x.question_id, selected_options: x.selected_options } : x,
          );
          try {
            const r = buildResponse(questions, { answers: cleaned, ...(rejected === undefined ? {} : { rejected }) });
            assert.ok(r.action === "accept" || (r.action === "decline" && rejected === true));
          } catch (err) {
            assert.ok(err instanceof ProtocolError && err.code === "VALIDATION_ERROR", String(err));
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
