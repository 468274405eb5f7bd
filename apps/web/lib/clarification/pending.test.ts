import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ClarificationStatus, Message } from "@kandev/protocol";
import { makeMessage } from "../test-fixtures";
import { noticeForStatus, pendingClarifications, readClarification, settledClarificationIds, settledElsewhere } from "./pending";

function clarification(id: string, status: ClarificationStatus, over: Partial<Message> = {}): Message {
  return makeMessage({
    id: `m-${id}`,
    type: "clarification_request",
    requests_input: status === "pending",
    content: "Please answer the following questions.",
    metadata: {
      pending_id: id,
      source: "elicitation",
      status,
      resolution: null,
      deadline: null,
      tool_call_id: "toolu_1",
      questions: [{ id: "question_0", kind: "single", prompt: "Colour?", options: [{ id: "Red", label: "Red" }] }],
    },
    ...over,
  });
}

describe("reading clarifications from the transcript", () => {
  test("a clarification_request with contract metadata becomes a view", () => {
    const view = readClarification(clarification("p1", "pending"));
    assert.equal(view?.pending_id, "p1");
    assert.equal(view?.source, "elicitation");
    assert.equal(view?.messageId, "m-p1");
    assert.equal(view?.questions[0]?.id, "question_0");
  });
  test("other messages and metadata off the contract give no overlay", () => {
    assert.equal(readClarification(makeMessage({ type: "text" })), null);
    assert.equal(readClarification(clarification("p1", "pending", { metadata: { pending_id: "p1" } })), null);
    assert.equal(readClarification(clarification("p1", "pending", { metadata: { pending_id: "p1", source: "guess" } })), null);
  });
  test("only pending ones with questions wait, oldest first", () => {
    const noQuestions = clarification("p4", "pending");
    noQuestions.metadata = { ...noQuestions.metadata, questions: [] };
    const list = pendingClarifications([
      clarification("p1", "answered"),
      clarification("p2", "pending"),
      makeMessage({ id: "x" }),
      clarification("p3", "pending"),
      noQuestions,
    ]);
    assert.deepEqual(
      list.map((c) => c.pending_id),
      ["p2", "p3"],
    );
  });
});

describe("settled elsewhere", () => {
  test("each terminal status has its own notice and pending has none", () => {
    assert.equal(noticeForStatus("pending"), null);
    assert.equal(noticeForStatus("answered"), "answered-elsewhere");
    assert.equal(noticeForStatus("declined"), "skipped-elsewhere");
    assert.equal(noticeForStatus("timed_out"), "timed-out");
    assert.equal(noticeForStatus("cancelled"), "withdrawn");
    assert.equal(noticeForStatus("cancelled", "agent_cancelled"), "withdrawn");
    assert.equal(noticeForStatus("cancelled", "turn_cancelled"), "turn-cancelled");
    assert.equal(noticeForStatus("agent_disconnected"), "agent-gone");
  });
  test("a shown clarification that settled is reported; unseen, pending and own submissions are not", () => {
    const messages = [
      clarification("shown-timed-out", "timed_out"),
      clarification("never-shown", "cancelled"),
      clarification("shown-pending", "pending"),
      clarification("mine", "answered"),
    ];
    const out = settledElsewhere(new Set(["shown-timed-out", "shown-pending", "mine"]), messages, new Set(["mine"]));
    assert.deepEqual(out, [{ pendingId: "shown-timed-out", kind: "timed-out" }]);
  });
});

test("every settled clarification is listed, whatever settled it, so its saved draft is dropped", () => {
  const messages = [
    clarification("open", "pending"),
    clarification("a", "answered"),
    clarification("t", "timed_out"),
    makeMessage({ type: "text" }),
    clarification("g", "agent_disconnected"),
  ];
  assert.deepEqual(settledClarificationIds(messages), ["a", "t", "g"]);
});
