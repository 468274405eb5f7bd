import assert from "node:assert/strict";
import { test } from "node:test";
import type { ClarificationView } from "./pending";
import { answerSummary } from "./summary";

const view = (answers: unknown): ClarificationView => ({
  messageId: "m1",
  content: "Please answer",
  createdAt: "2026-01-01T00:00:00.000Z",
  pending_id: "p1",
  source: "elicitation",
  status: "answered",
  resolution: { by: "operator", at: "2026-01-01T00:00:05.000Z", answers },
  deadline: null,
  tool_call_id: null,
  questions: [
    {
      id: "q0",
      kind: "single",
      title: "Colour",
      prompt: "Which colour?",
      options: [
        { id: "Red", label: "Red" },
        { id: "Blue", label: "Blue" },
      ],
    },
    {
      id: "q1",
      kind: "multi",
      prompt: "Platforms?",
      options: [
        { id: "web", label: "Web" },
        { id: "ios", label: "iOS" },
      ],
    },
    { id: "q2", kind: "text", prompt: "Anything else?", options: [] },
  ],
});

test("answerSummary lists labels in declaration order, then text, skipping unanswered questions", () => {
  const lines = answerSummary(
    view([
      { question_id: "q1", selected_options: ["ios", "web"] },
      { question_id: "q0", selected_options: ["Blue"], custom_text: " darker " },
    ]),
  );
  assert.deepEqual(lines, [
    { questionId: "q0", question: "Colour", answer: ["Blue", "darker"] },
    { questionId: "q1", question: "Platforms?", answer: ["Web", "iOS"] },
  ]);
});

test("answerSummary gives nothing for missing or unreadable answers", () => {
  assert.deepEqual(answerSummary(view(undefined)), []);
  assert.deepEqual(answerSummary(view([{ nope: 1 }])), []);
  assert.deepEqual(answerSummary(view([{ question_id: "q2", selected_options: [], custom_text: "  " }])), []);
});
