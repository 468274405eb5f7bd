import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Notification } from "@kandev/protocol";
import { notificationPlan, taskIdFromPath, type PlanContext } from "./plan";
import { DEFAULT_PREFS, parsePrefs, serializePrefs } from "./prefs";
import { NO_UNREAD, addUnread, clearTask, unreadCount, withTaskUpdate } from "./unread";
import { stripCount, withCount } from "../title";

const question: Notification = {
  id: "n1",
  kind: "session.clarification_requested",
  task_id: "t1",
  session_id: "s1",
  title: "Fix the login test",
  body: "The agent has a question",
  pending_id: "p1",
  created_at: "2026-01-01T00:00:00.000Z",
};
const ctx = (over: Partial<PlanContext> = {}): PlanContext => ({
  viewingTaskId: null,
  visible: true,
  prefs: { desktop: true, sound: false },
  permission: "granted",
  ...over,
});

describe("notification plan", () => {
  test("a question elsewhere: toast, desktop when granted, counted as unread", () => {
    assert.deepEqual(notificationPlan(question, ctx()), { toast: true, desktop: true, sound: false, unread: true });
  });
  test("nothing at all for the task the operator is looking at", () => {
    assert.deepEqual(notificationPlan(question, ctx({ viewingTaskId: "t1" })), {
      toast: false,
      desktop: false,
      sound: false,
      unread: false,
    });
  });
  test("a hidden tab on that task is not looking", () => {
    assert.equal(notificationPlan(question, ctx({ viewingTaskId: "t1", visible: false })).toast, true);
  });
  test("desktop needs both the preference and the browser permission; sound follows its preference", () => {
    for (const permission of ["denied", "default", "unsupported"] as const) {
      assert.equal(notificationPlan(question, ctx({ permission })).desktop, false, permission);
    }
    assert.equal(notificationPlan(question, ctx({ prefs: { desktop: false, sound: true } })).desktop, false);
    assert.equal(notificationPlan(question, ctx({ prefs: { desktop: false, sound: true } })).sound, true);
  });
  test("a finished turn toasts but is not an unanswered question", () => {
    const p = notificationPlan({ ...question, kind: "session.turn_finished", pending_id: null }, ctx());
    assert.equal(p.toast, true);
    assert.equal(p.unread, false);
  });
  test("taskIdFromPath reads only the task page", () => {
    assert.equal(taskIdFromPath("/tasks/abc"), "abc");
    assert.equal(taskIdFromPath("/tasks/a%20b/"), "a b");
    assert.equal(taskIdFromPath("/"), null);
    assert.equal(taskIdFromPath("/settings"), null);
    assert.equal(taskIdFromPath("/tasks/abc/other"), null);
    assert.equal(taskIdFromPath(null), null);
  });
});

describe("local preferences", () => {
  test("round-trip, and anything unreadable falls back field by field", () => {
    assert.deepEqual(parsePrefs(serializePrefs({ desktop: false, sound: true })), { desktop: false, sound: true });
    assert.deepEqual(parsePrefs(null), DEFAULT_PREFS);
    assert.deepEqual(parsePrefs("{oops"), DEFAULT_PREFS);
    assert.deepEqual(parsePrefs('"x"'), DEFAULT_PREFS);
    assert.deepEqual(parsePrefs('{"sound": true, "desktop": "yes"}'), { desktop: DEFAULT_PREFS.desktop, sound: true });
  });
});

describe("unread questions and the tab title", () => {
  test("one entry per question; opening the task forgets its entries", () => {
    let u = addUnread(NO_UNREAD, "p1", "t1");
    u = addUnread(u, "p1", "t1");
    u = addUnread(u, "p2", "t1");
    u = addUnread(u, "p3", "t2");
    assert.equal(unreadCount(u), 3);
    assert.equal(addUnread(u, "p3", "t2"), u, "a repeat changes nothing");
    u = clearTask(u, "t1");
    assert.equal(unreadCount(u), 1);
    assert.equal(clearTask(u, "t9"), u);
  });
  test("a task waiting on a permission counts once until it stops waiting; not the task on screen", () => {
    let u = withTaskUpdate(NO_UNREAD, { id: "t1", pending_action: "permission" }, null);
    assert.equal(unreadCount(u), 1);
    assert.equal(withTaskUpdate(u, { id: "t1", pending_action: "permission" }, null), u, "a repeat changes nothing");
    u = withTaskUpdate(u, { id: "t2", pending_action: "permission" }, "t2");
    assert.equal(unreadCount(u), 1, "the task on screen is being looked at");
    u = withTaskUpdate(u, { id: "t1", pending_action: null }, null);
    assert.equal(unreadCount(u), 0);
  });
  test("questions and permissions add up; a question answered while a permission waits leaves the permission", () => {
    let u = addUnread(NO_UNREAD, "p1", "t1");
    u = withTaskUpdate(u, { id: "t2", pending_action: "permission" }, null);
    assert.equal(unreadCount(u), 2);
    assert.equal(withTaskUpdate(u, { id: "t1", pending_action: "clarification" }, null), u);
    u = withTaskUpdate(u, { id: "t1", pending_action: "permission" }, null);
    assert.deepEqual([...u.keys()].sort(), ["permission:t1", "permission:t2"]);
  });
  test("the count goes in front of the title, once", () => {
    assert.equal(withCount("Board · Kandev", 2), "(2) Board · Kandev");
    assert.equal(withCount("(2) Board · Kandev", 3), "(3) Board · Kandev");
    assert.equal(withCount("(2) Board · Kandev", 0), "Board · Kandev");
    assert.equal(stripCount("(10) Kandev"), "Kandev");
    assert.equal(stripCount("(x) Kandev"), "(x) Kandev");
  });
});
