import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ClarificationMetadataSchema, type Message, type Question } from "@kandev/protocol";
import {
  clarificationContent,
  clarificationMessageView,
  clarificationMetadata,
  storedClarificationMetadata,
  toClarificationView,
  withUndeliveredAnswer,
  type ClarificationFacts,
} from "./message.js";

const q = (id: string, prompt: string, extra: Partial<Question> = {}): Question => ({
  id,
  kind: "single",
  prompt,
  options: [{ id: "a", label: "A" }],
  ...extra,
});

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

  test("metadata carries pending id, source, status, deadline, tool call and each question's kind and companion labels (AC-08, F6)", () => {
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

  test("the message's status, resolution and requests_input are read from the record; the row keeps only its link and an undelivered answer", () => {
    const answer = { answers: [{ question_id: "question_0", selected_options: ["a"] }] };
    const stored = withUndeliveredAnswer(storedClarificationMetadata("p-1"), answer, "2030-01-01T00:00:01.000Z");
    assert.deepEqual(Object.keys(stored).sort(), ["pending_id", "undelivered_answer"]);
    const row: Message = {
      id: "m",
      session_id: "s",
      task_id: "t",
      turn_id: null,
      author_type: "agent",
      type: "clarification_request",
      content: "Pick one",
      requests_input: false,
      metadata: stored,
      created_at: "x",
    };
    assert.equal(clarificationMessageView(row, facts).requests_input, true, "pending: it requests input");
    const settled = clarificationMessageView(row, {
      ...facts,
      status: "declined",
      resolution: { by: "operator_rejected", at: "x", reject_reason: "later" },
    });
    assert.equal(settled.requests_input, false);
    assert.equal(settled.metadata.status, "declined");
    assert.equal(settled.metadata.reject_reason, "later", "the Skip's reason is the resolution's");
    assert.deepEqual(settled.metadata.undelivered_answer, { ...answer, at: "2030-01-01T00:00:01.000Z" });
    ClarificationMetadataSchema.parse(settled.metadata);
  });

  test("a message written before the record owned its status reads the record's status over its stale copy", () => {
    const old = clarificationMetadata(facts);
    const now = clarificationMetadata({ ...facts, status: "cancelled", resolution: { by: "turn_cancelled", at: "x" } }, old);
    assert.equal(now.status, "cancelled");
  });

  test("the public record has the DECISIONS §3 shape", () => {
    assert.deepEqual(Object.keys(toClarificationView(facts)).sort(), [
      "deadline",
      "message",
      "pending_id",
      "questions",
      "resolution",
      "session_id",
      "source",
      "status",
      "task_id",
    ]);
  });
});
