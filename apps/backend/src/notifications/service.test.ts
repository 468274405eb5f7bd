import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { Notification } from "@kandev/protocol";
import { openDatabase, type DatabaseHandle } from "../db/client.js";
import { silentLogger } from "../logger.js";
import * as tasksRepo from "../repos/tasks.js";
import { NotificationService } from "./service.js";

describe("NotificationService over SQLite", () => {
  let dir: string;
  let handle: DatabaseHandle;
  const sent: Notification[] = [];
  let svc: NotificationService;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-"));
    handle = openDatabase(path.join(dir, "kandev.db"));
    svc = new NotificationService(handle.db, { notify: (n) => sent.push(n) }, silentLogger);
  });
  after(() => {
    handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a new clarification's notification is built, not claimed: it writes nothing and sends nothing until delivered", () => {
    const task = tasksRepo.insertTask(handle.db, { title: "Ship it", agentProfileId: "mock" });
    const ids = { pendingId: "p-1", sessionId: "s-1", taskId: task.id, taskTitle: task.title };
    const deliveries = () => (handle.sqlite.prepare("SELECT count(*) AS n FROM notification_deliveries").get() as { n: number }).n;
    const before = { rows: deliveries(), sent: sent.length };
    const n = svc.newClarificationRequested(ids);
    assert.ok(n);
    assert.deepEqual([n.kind, n.title, n.pending_id, n.task_id, n.session_id], ["session.clarification_requested", "Ship it", "p-1", task.id, "s-1"]);
    assert.deepEqual({ rows: deliveries(), sent: sent.length }, before, "no claim row, nothing sent");
    svc.deliver(n);
    assert.deepEqual(sent.at(-1), n);
    assert.notEqual(svc.newClarificationRequested(ids)?.id, n.id, "each call is a new notification: the caller's insert is the once-per-pending-id");
  });

  test("turn_finished is opt-in, once per turn, never for a cancel; switching clarifications off silences them", () => {
    const task = tasksRepo.insertTask(handle.db, { title: "T", agentProfileId: "mock" });
    const turn = { turnId: "turn-1", sessionId: "s", taskId: task.id, stopReason: "end_turn" };
    assert.equal(svc.turnFinished(turn), null, "off by default");
    assert.deepEqual(svc.updateSettings({ turn_finished: true }), { clarification_requested: true, turn_finished: true });
    assert.equal(svc.turnFinished({ ...turn, turnId: "turn-c", stopReason: "cancelled" }), null);
    assert.equal(svc.turnFinished(turn)?.kind, "session.turn_finished");
    assert.equal(svc.turnFinished(turn), null, "deduplicated by turn id");
    svc.updateSettings({ clarification_requested: false });
    assert.equal(svc.newClarificationRequested({ pendingId: "p-off", sessionId: "s", taskId: task.id, taskTitle: "T" }), null);
    assert.deepEqual(svc.settings(), { clarification_requested: false, turn_finished: true });
    svc.updateSettings({ clarification_requested: true, turn_finished: false });
  });
  test("settings are read once and again after each update, not on every question", () => {
    const task = tasksRepo.insertTask(handle.db, { title: "T", agentProfileId: "mock" });
    const ids = { pendingId: "p-cache", sessionId: "s", taskId: task.id, taskTitle: "T" };
    svc.updateSettings({ clarification_requested: true });
    // Behind the service's back: a question does not read the table again.
    handle.sqlite.prepare("UPDATE notification_settings SET enabled = 0 WHERE key = 'clarification_requested'").run();
    assert.equal(svc.newClarificationRequested(ids)?.kind, "session.clarification_requested");
    // An update reads it again (and so sees the change made behind its back too).
    svc.updateSettings({ turn_finished: false });
    assert.equal(svc.newClarificationRequested(ids), null);
    assert.deepEqual(svc.settings(), { clarification_requested: false, turn_finished: false });
    svc.updateSettings({ clarification_requested: true });
    // Another service on the same file (a restart) starts from what was stored.
    assert.deepEqual(new NotificationService(handle.db, { notify: () => {} }, silentLogger).settings(), svc.settings());
  });

  test("a settings update the database refuses part way changes none of them", () => {
    // Refuse the second write of a patch, as a full disk would.
    handle.sqlite.exec(`CREATE TRIGGER refuse_turn_finished BEFORE INSERT ON notification_settings WHEN NEW.key = 'turn_finished'
      BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    try {
      handle.sqlite.exec("DELETE FROM notification_settings");
      svc.updateSettings({});
      assert.throws(() => svc.updateSettings({ clarification_requested: false, turn_finished: true }), /refused/);
      const defaults = { clarification_requested: true, turn_finished: false };
      assert.deepEqual(svc.settings(), defaults, "the first write was rolled back with the second");
      assert.deepEqual(new NotificationService(handle.db, { notify: () => {} }, silentLogger).settings(), defaults, "as stored");
    } finally {
      handle.sqlite.exec("DROP TRIGGER refuse_turn_finished");
    }
  });
});
