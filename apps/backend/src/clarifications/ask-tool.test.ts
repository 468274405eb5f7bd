import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  KandevToolInputSchema,
  checkKandevAnswer,
  formatKandevToolResult,
  kandevDedupKey,
  kandevTimeoutText,
  parseKandevAsk,
  toKandevQuestions,
} from "./ask-tool.js";
import { ProtocolError } from "@kandev/protocol";

const input = {
  questions: [
    { prompt: "Which database?", options: [{ label: "Postgres" }, { label: "SQLite", description: "embedded" }] },
    {
      id: "env",
      prompt: "Deploy where?",
      options: [
        { id: "dev", label: "dev" },
        { id: "prod", label: "prod" },
      ],
    },
  ],
};

describe("ask_user_question_kandev input (F3 rules kept)", () => {
  test("accepts 1-4 questions with 2-6 options", () => {
    assert.equal(KandevToolInputSchema.safeParse(input).success, true);
  });
  test("rejects zero or five questions, and one or seven options", () => {
    const q = input.questions[0]!;
    const opts = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `o${i}` }));
    for (const bad of [
      { questions: [] },
      { questions: [q, q, q, q, q] },
      { questions: [{ prompt: "p", options: opts(1) }] },
      { questions: [{ prompt: "p", options: opts(7) }] },
      { questions: [{ prompt: " ", options: opts(2) }] },
      { nope: true },
    ]) {
      assert.equal(KandevToolInputSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
  test("mints stable question and option ids and keeps given ones", () => {
    const qs = toKandevQuestions(KandevToolInputSchema.parse(input));
    assert.deepEqual(
      qs.map((q) => q.id),
      ["q1", "env"],
    );
    assert.deepEqual(
      qs[0]!.options.map((o) => o.id),
      ["q1_o1", "q1_o2"],
    );
    assert.deepEqual(
      qs[1]!.options.map((o) => o.id),
      ["dev", "prod"],
    );
    assert.ok(qs.every((q) => q.kind === "single"));
  });
  test("duplicate ids are made unique rather than colliding", () => {
    const qs = toKandevQuestions(
      KandevToolInputSchema.parse({
        questions: [
          {
            id: "a",
            prompt: "1",
            options: [
              { id: "x", label: "x" },
              { id: "x", label: "y" },
            ],
          },
          { id: "a", prompt: "2", options: [{ label: "x" }, { label: "y" }] },
        ],
      }),
    );
    assert.equal(new Set(qs.map((q) => q.id)).size, 2);
    assert.equal(new Set(qs[0]!.options.map((o) => o.id)).size, 2);
  });
});

describe("ask-tool dedup key", () => {
  test("same questions modulo case and spacing collide; other sessions do not", () => {
    const a = toKandevQuestions(KandevToolInputSchema.parse(input));
    const b = toKandevQuestions(
      KandevToolInputSchema.parse({
        questions: [
          { prompt: "which  database?", options: [{ label: "POSTGRES" }, { label: "sqlite" }] },
          { prompt: "Deploy where?", options: [{ label: "dev" }, { label: "prod" }] },
        ],
      }),
    );
    assert.equal(kandevDedupKey("s1", a), kandevDedupKey("s1", b));
    assert.notEqual(kandevDedupKey("s1", a), kandevDedupKey("s2", a));
  });
});

describe("ask-tool answers", () => {
  const qs = toKandevQuestions(KandevToolInputSchema.parse(input));
  const ok = {
    answers: [
      { question_id: "q1", selected_options: ["q1_o2"] },
      { question_id: "env", selected_options: [], custom_text: "staging" },
    ],
  };
  test("every question answered by a pick or by text passes", () => {
    assert.equal(checkKandevAnswer(qs, ok), null);
  });
  test("a rejected bundle with no answers passes; with answers it does not", () => {
    assert.equal(checkKandevAnswer(qs, { answers: [], rejected: true }), null);
    assert.match(checkKandevAnswer(qs, { ...ok, rejected: true }) ?? "", /rejected/);
  });
  test("each broken rule is named", () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ answers: [ok.answers[0]] }, /missing: env/],
      [{ answers: [...ok.answers, { question_id: "zz", selected_options: ["a"] }] }, /unknown question_id/],
      [{ answers: [{ question_id: "q1", selected_options: ["q1_o1", "q1_o2"] }, ok.answers[1]] }, /takes one option/],
      [{ answers: [{ question_id: "q1", selected_options: ["q1_o1"], custom_text: "x" }, ok.answers[1]] }, /not both/],
      [{ answers: [{ question_id: "q1", selected_options: ["nope"] }, ok.answers[1]] }, /not an option/],
      [{ answers: [{ question_id: "q1", selected_options: [], custom_text: "  " }, ok.answers[1]] }, /no answer/],
      [{ answers: [ok.answers[0], ok.answers[0], ok.answers[1]] }, /answered twice/],
      [{ answers: [{ question_id: "q1", selected_options: [], custom_text: "x".repeat(2001) }, ok.answers[1]] }, /2000/],
    ];
    for (const [answer, re] of cases) {
      assert.match(checkKandevAnswer(qs, answer as never) ?? "(passed)", re);
    }
  });
  test("the tool result names each question and its answer", () => {
    const text = formatKandevToolResult(qs, ok);
    assert.match(text, /Which database\?\n {2}Answer: SQLite/);
    assert.match(text, /Deploy where\?\n {2}Answer: staging/);
    assert.match(formatKandevToolResult(qs, { answers: [], rejected: true, reject_reason: "later" }), /skipped.*later/);
  });
});

describe("relayed kandev.ask_user_question requests", () => {
  test("valid input yields the questions and the session", () => {
    const parsed = parseKandevAsk({ session_id: "acp-1", questions: input.questions });
    assert.equal(parsed.sessionId, "acp-1");
    assert.deepEqual(
      parsed.questions.map((q) => q.id),
      ["q1", "env"],
    );
  });
  test("input outside the tool's rules is VALIDATION_ERROR naming each rule and where (F3)", () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ session_id: null, questions: [] }, /questions: ask 1-4 questions/],
      [{ session_id: null, questions: [{ prompt: "p", options: [{ label: "only" }] }] }, /questions\.0\.options: each question needs 2-6 options/],
      [{ session_id: null, questions: "nope" }, /questions/],
      [{ questions: input.questions }, /needs \{session_id, questions\}/],
      [null, /needs/],
    ];
    for (const [payload, re] of cases) {
      assert.throws(
        () => parseKandevAsk(payload),
        (err: unknown) => err instanceof ProtocolError && err.code === "VALIDATION_ERROR" && re.test(err.message),
        JSON.stringify(payload),
      );
    }
  });
  test("the timeout text says the operator did not answer in time", () => {
    assert.match(kandevTimeoutText(2 * 60 * 60_000), /did not answer in time \(no answer within 2 h\)/);
    assert.match(kandevTimeoutText(1500), /1500 ms/);
  });
});
