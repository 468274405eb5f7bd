import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ClarificationMetadataSchema, type Question } from "@kandev/protocol";
import { clarificationContent, clarificationMetadata, toClarificationView, withRejectReason, withUndeliveredAnswer, type ClarificationFacts } from "./message.js";

const q = (id: string, prompt: string, extra: Partial<Question> = {}): Question => ({ id, kind: "single", prompt, options: [{ id: "a", label: "A" }], ...extra });

const facts: ClarificationFacts = {
  pendingId: "p-1",
  sessionId: "s",
  taskId: "t",
  source: "elicitation",
  status: "pending",
  resolution: null,
  deadline: "2030-01-01T00:00:00.000Z",
  toolCallId: "toolu_1",
  message: "Pick one",
  questions: [q("question_0", "Which?", { kind: "multi", companion: { id: "question_0_custom", title: "Other", description: "Type your own" } })],
};

describe("clarification message", () => {
  test("content: the elicitation's message; for the kandev tool the question, or a list of them", () => {
    assert.equal(clarificationContent("elicitation", "Pick one", facts.questions), "Pick one");
    assert.equal(clarificationContent("elicitation", "  ", [q("a", "Only?")]), "Only?");
    assert.equal(clarificationContent("kandev_tool", "", [q("a", "Only?")]), "Only?");
    assert.equal(clarificationContent("kandev_tool", "", [q("a", "One?"), q("b", "Two?")]), "The agent asks:\n- One?\n- Two?");
  });

  test("AC-08 F6 metadata carries pending id, source, status, deadline, tool call and each question's kind and companion labels", () => {
    const meta = clarificationMetadata(facts);
    ClarificationMetadataSchema.parse(meta);
    assert.equal(meta.pending_id, "p-1");
    assert.equal(meta.source, "elicitation");
    assert.equal(meta.status, "pending");
    assert.equal(meta.resolution, null);
    assert.equal(meta.deadline, facts.deadline);
    assert.equal(meta.tool_call_id, "toolu_1");
    assert.deepEqual((meta.questions as Question[])[0]!.companion, { id: "question_0_custom", title: "Other", description: "Type your own" });
    assert.equal((meta.questions as Question[])[0]!.kind, "multi");
  });

  test("a rewrite keeps answer-path keys (undelivered answer, reject reason) and takes status from the record", () => {
    const answer = { answers: [{ question_id: "question_0", selected_options: ["a"] }] };
    let meta = withUndeliveredAnswer(clarificationMetadata(facts), answer, "2030-01-01T00:00:01.000Z");
    meta = withRejectReason(meta, { answers: [], rejected: true, reject_reason: " later " });
    const settled = clarificationMetadata({ ...facts, status: "agent_disconnected", resolution: { by: "agent_disconnected", at: "x" } }, meta);
    assert.equal(settled.status, "agent_disconnected");
    assert.deepEqual(settled.undelivered_answer, { ...answer, at: "2030-01-01T00:00:01.000Z" });
    assert.equal(settled.reject_reason, "later");
    ClarificationMetadataSchema.parse(settled);
  });

  test("a reject reason is only kept for a rejection with a reason", () => {
    assert.deepEqual(withRejectReason({}, { answers: [], rejected: true }), {});
    assert.deepEqual(withRejectReason({}, { answers: [], reject_reason: "x" }), {});
  });

  test("the public record has the DECISIONS §3 shape", () => {
    assert.deepEqual(Object.keys(toClarificationView(facts)).sort(), ["deadline", "message", "pending_id", "questions", "resolution", "session_id", "source", "status", "task_id"]);
  });
});
