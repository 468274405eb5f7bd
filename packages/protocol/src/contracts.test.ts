import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  AGENT_ACTIONS,
  AGENT_EVENTS,
  BROWSER_NOTIFICATIONS,
  ClarificationAnswerSchema,
  ConfigureParamsSchema,
  LIMITS,
  SubscribeParamsSchema,
} from "./index.js";

describe("agent-stream contracts", () => {
  test("every action the spec names is registered, and nothing else", () => {
    assert.deepEqual(Object.keys(AGENT_ACTIONS).sort(), [
      "agent.cancel",
      "agent.configure",
      "agent.elicitations.respond",
      "agent.initialize",
      "agent.permissions.respond",
      "agent.prompt",
      "agent.session.close",
      "agent.session.load",
      "agent.session.new",
      "agent.session.set_config_option",
      "agent.session.set_mode",
      "agent.status",
    ]);
  });

  test("every agent event is registered", () => {
    for (const e of [
      "session.update",
      "turn.started",
      "turn.ended",
      "permission.requested",
      "permission.settled",
      "elicitation.requested",
      "elicitation.settled",
      "agent.stderr",
      "agent.exited",
    ]) {
      assert.ok(e in AGENT_EVENTS, e);
    }
  });

  test("agent.configure fills defaults and requires features explicitly (F5)", () => {
    const parsed = ConfigureParamsSchema.parse({
      agent: { command: ["node", "agent.js"] },
      features: { acpElicitation: true },
    });
    assert.equal(parsed.agent_id, "generic");
    assert.equal(parsed.auto_approve_permissions, false);
    assert.deepEqual(parsed.timeouts, {});
    assert.equal(
      ConfigureParamsSchema.safeParse({ agent: { command: ["x"] } }).success,
      false,
      "features must be sent, never read from agentctl's env",
    );
  });

  test("elicitation.requested needs at least one question", () => {
    const base = { pending_id: "p", session_id: "s", tool_call_id: null, message: "m", deadline: "2026-01-01T00:00:00Z" };
    assert.equal(AGENT_EVENTS["elicitation.requested"].safeParse({ ...base, questions: [] }).success, false);
    assert.equal(
      AGENT_EVENTS["elicitation.requested"].safeParse({
        ...base,
        questions: [{ id: "apiKey", kind: "text", prompt: "Key?", options: [] }],
      }).success,
      true,
    );
  });
});

describe("answers are bounded", () => {
  test("custom text over the limit is refused", () => {
    const long = "x".repeat(LIMITS.maxCustomTextChars + 1);
    const r = ClarificationAnswerSchema.safeParse({ answers: [{ question_id: "q", selected_options: [], custom_text: long }] });
    assert.equal(r.success, false);
  });
  test("more answers than questions can exist is refused", () => {
    const answers = Array.from({ length: LIMITS.maxQuestions + 1 }, (_, i) => ({ question_id: `q${i}`, selected_options: [] }));
    assert.equal(ClarificationAnswerSchema.safeParse({ answers }).success, false);
  });
});

describe("browser WebSocket contracts", () => {
  test("subscribe takes exactly one target", () => {
    assert.equal(SubscribeParamsSchema.safeParse({ board: true }).success, true);
    assert.equal(SubscribeParamsSchema.safeParse({ task_id: "t" }).success, true);
    assert.equal(SubscribeParamsSchema.safeParse({ task_id: "t", session_id: "s" }).success, false);
    assert.equal(SubscribeParamsSchema.safeParse({ board: false }).success, false);
    assert.equal(SubscribeParamsSchema.safeParse({}).success, false);
  });
  test("the notifications the board relies on exist", () => {
    for (const n of [
      "task.updated",
      "session.updated",
      "session.message.added",
      "session.message.updated",
      "session.message.appended",
      "notification",
      "session.log",
    ]) {
      assert.ok(n in BROWSER_NOTIFICATIONS, n);
    }
  });
  test("an appended delta carries its message, a whole offset and the text", () => {
    const ok = { session_id: "s", task_id: "t", message_id: "m", offset: 3, text: "abc" };
    assert.equal(BROWSER_NOTIFICATIONS["session.message.appended"].safeParse(ok).success, true);
    assert.equal(BROWSER_NOTIFICATIONS["session.message.appended"].safeParse({ ...ok, offset: -1 }).success, false);
    assert.equal(BROWSER_NOTIFICATIONS["session.message.appended"].safeParse({ ...ok, offset: 1.5 }).success, false);
    assert.equal(BROWSER_NOTIFICATIONS["session.message.appended"].safeParse({ ...ok, message_id: "" }).success, false);
  });
});
