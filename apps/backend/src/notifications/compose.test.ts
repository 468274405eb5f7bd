import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { NotificationKindSchema, NotificationSettingsSchema } from "@kandev/protocol";
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  SETTING_OF_KIND,
  composeClarificationRequested,
  composeTurnFinished,
  notifiesTurnFinished,
  resolveSettings,
} from "./compose.js";

describe("notification copy and settings", () => {
  test("every notification kind has a setting (completeness)", () => {
    assert.deepEqual(Object.keys(SETTING_OF_KIND).sort(), [...NotificationKindSchema.options].sort());
    assert.deepEqual(Object.values(SETTING_OF_KIND).sort(), Object.keys(NotificationSettingsSchema.shape).sort());
  });
  test("clarification requests are on by default, turn_finished is opt-in; stored values win", () => {
    assert.deepEqual(DEFAULT_NOTIFICATION_SETTINGS, { clarification_requested: true, turn_finished: false });
    assert.deepEqual(resolveSettings({ turn_finished: true, gone: false }), { clarification_requested: true, turn_finished: true });
    assert.deepEqual(resolveSettings({ clarification_requested: false }), { clarification_requested: false, turn_finished: false });
  });
  test("the copy names the task and nothing the agent wrote (F9)", () => {
    const n = composeClarificationRequested("Ship the button");
    assert.equal(n.title, "Ship the button");
    assert.match(n.body, /needs your answer on "Ship the button"/);
    assert.equal(composeClarificationRequested("x".repeat(500)).title.length, 200);
  });
  test("a finished turn notifies unless the operator cancelled it", () => {
    assert.match(composeTurnFinished("T", "end_turn").body, /finished its turn/);
    assert.match(composeTurnFinished("T", "error").body, /ended with an error/);
    assert.equal(notifiesTurnFinished("cancelled"), false);
    assert.equal(notifiesTurnFinished("end_turn"), true);
  });
});
