import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { JOURNAL_SIZE_LIMIT_BYTES, defaultMigrationsFolder, openDatabase, type DatabaseHandle } from "../db/client.js";
import { FlagService } from "../flags/service.js";
import * as overrides from "./flag-overrides.js";
import * as clarifications from "./clarifications.js";
import * as messages from "./messages.js";
import { claimDelivery } from "./notification-deliveries.js";
import * as profiles from "./profiles.js";
import * as sessions from "./sessions.js";
import * as tasks from "./tasks.js";
import * as turns from "./turns.js";
import { inTransaction } from "./util.js";

describe("repositories over a real SQLite file", () => {
  let dir: string;
  let handle: DatabaseHandle;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-"));
    handle = openDatabase(path.join(dir, "nested", "kandev.db"));
  });
  after(() => {
    handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("openDatabase creates the folder, applies migrations and sets WAL (SQLite's own checkpoints) + foreign keys", () => {
    const raw = new Database(path.join(dir, "nested", "kandev.db"), { readonly: true });
    try {
      assert.equal(raw.pragma("journal_mode", { simple: true }), "wal");
      assert.equal(handle.sqlite.pragma("journal_size_limit", { simple: true }), JOURNAL_SIZE_LIMIT_BYTES);
      assert.equal(handle.sqlite.pragma("wal_autocheckpoint", { simple: true }), 1000, "SQLite's own checkpoints, at its default");
      const names = (raw.prepare("select name from sqlite_master where type='table'").all() as Array<{ name: string }>).map((r) => r.name);
      for (const t of ["tasks", "sessions", "turns", "messages", "agent_profiles", "runtime_flag_overrides", "notification_deliveries"]) {
        assert.ok(names.includes(t), `table ${t}`);
      }
    } finally {
      raw.close();
    }
    assert.throws(() => sessions.insertSession(handle.db, { taskId: "no-such-task", agentProfileId: "mock" }), /FOREIGN KEY/);
  });

  test("re-opening an up-to-date database is a no-op", () => {
    const again = openDatabase(path.join(dir, "nested", "kandev.db"));
    again.close();
  });

  test("profiles: insert, conflict, builtin upsert replaces the command", () => {
    const db = handle.db;
    const p = profiles.insertProfile(db, { id: "p1", name: "P", command: ["a", "b"], env: { K: "v" } });
    assert.deepEqual(p?.command, ["a", "b"]);
    assert.deepEqual(p?.env, { K: "v" });
    assert.equal(profiles.insertProfile(db, { id: "p1", name: "dup", command: ["x"] }), undefined);
    profiles.upsertBuiltinProfile(db, { id: "mock", name: "Mock", command: ["node", "old.js"] });
    const updated = profiles.upsertBuiltinProfile(db, { id: "mock", name: "Mock", command: ["node", "new.js"] });
    assert.deepEqual(updated.command, ["node", "new.js"]);
    assert.equal(updated.builtin, true);
    assert.deepEqual(
      profiles
        .listProfiles(db)
        .map((r) => r.id)
        .sort(),
      ["mock", "p1"],
    );
  });

  test("tasks and sessions: latest session per task, state filter, live sessions", () => {
    const db = handle.db;
    const t1 = tasks.insertTask(db, { title: "one", agentProfileId: "mock" });
    const t2 = tasks.insertTask(db, { title: "two", agentProfileId: "mock" });
    assert.equal(t1.state, "TODO");
    const s1 = sessions.insertSession(db, { taskId: t1.id, agentProfileId: "mock" });
    const s2 = sessions.insertSession(db, { taskId: t1.id, agentProfileId: "mock" });
    sessions.updateSession(db, s1.id, { state: "FAILED", error: "x" });
    sessions.updateSession(db, s2.id, { state: "RUNNING", acpSessionId: "acp-1" });
    const latest = sessions.latestSessionsByTask(db, [t1.id, t2.id]);
    assert.equal(latest.get(t1.id)?.id, s2.id);
    assert.equal(latest.has(t2.id), false);
    assert.deepEqual(
      sessions.listSessionsForTask(db, t1.id).map((s) => s.id),
      [s1.id, s2.id],
    );
    assert.deepEqual(
      sessions.listLiveSessions(db).map((s) => s.id),
      [s2.id],
    );
    tasks.updateTaskState(db, t1.id, "IN_PROGRESS", "permission");
    assert.deepEqual(
      tasks.listTasks(db, { state: "IN_PROGRESS" }).map((t) => t.id),
      [t1.id],
    );
    assert.equal(tasks.getTask(db, t1.id)?.pendingAction, "permission");
    assert.equal(tasks.updateTaskState(db, "nope", "TODO", null), undefined);
    const all = tasks.listTasks(db).map((t) => t.id);
    assert.ok(all.indexOf(t2.id) < all.indexOf(t1.id), "newest first, even within one millisecond");
  });

  test("turns end exactly once", () => {
    const db = handle.db;
    const t = tasks.insertTask(db, { title: "t", agentProfileId: "mock" });
    const s = sessions.insertSession(db, { taskId: t.id, agentProfileId: "mock" });
    const turn = turns.insertTurn(db, { sessionId: s.id });
    assert.equal(turns.endTurn(db, turn.id, { stopReason: "end_turn" })?.stopReason, "end_turn");
    assert.equal(turns.endTurn(db, turn.id, { stopReason: "cancelled" }), undefined);
    assert.equal(turns.getTurn(db, turn.id)?.stopReason, "end_turn");
  });

  test("messages: order, append, metadata JSON, pending-id lookup, open requests per turn", () => {
    const db = handle.db;
    const t = tasks.insertTask(db, { title: "t", agentProfileId: "mock" });
    const s = sessions.insertSession(db, { taskId: t.id, agentProfileId: "mock" });
    const turnA = turns.insertTurn(db, { sessionId: s.id });
    const turnB = turns.insertTurn(db, { sessionId: s.id });
    const base = { sessionId: s.id, taskId: t.id, authorType: "agent" as const };
    const text = messages.insertMessage(db, { ...base, turnId: turnA.id, type: "text", content: "hel" });
    messages.appendContent(db, text.id, "lo");
    messages.appendContent(db, text.id, " 'quoted' ü");
    messages.insertMessage(db, {
      ...base,
      turnId: turnA.id,
      type: "permission_request",
      content: "allow?",
      requestsInput: true,
      metadata: { pending_id: "p-1", options: [{ option_id: "o" }] },
    });
    messages.insertMessage(db, {
      ...base,
      turnId: turnB.id,
      type: "permission_request",
      content: "b",
      requestsInput: true,
      metadata: { pending_id: "p-2" },
    });
    const list = messages.listMessages(db, s.id);
    assert.deepEqual(
      list.map((m) => m.type),
      ["text", "permission_request", "permission_request"],
    );
    assert.equal(list[0]!.content, "hello 'quoted' ü");
    const found = messages.findByPendingId(db, s.id, "permission_request", "p-1");
    assert.deepEqual(found?.metadata, { pending_id: "p-1", options: [{ option_id: "o" }] });
    assert.equal(messages.findByPendingId(db, s.id, "clarification_request", "p-1"), undefined);
    assert.deepEqual(
      messages.listOpenRequests(db, s.id, turnB.id).map((m) => m.metadata.pending_id),
      ["p-2"],
    );
    assert.equal(messages.listOpenRequests(db, s.id).length, 2);
    messages.updateMessage(db, found!.id, { requestsInput: false, metadata: { ...found!.metadata, status: "selected" } });
    assert.deepEqual(
      messages.listOpenRequests(db, s.id).map((m) => m.metadata.pending_id),
      ["p-2"],
    );
  });

  /**
   * A fresh handle (prepared statements are built once per handle, and a plan test needs them built
   * in it) whose connection records the SQL of every statement it prepares, for EXPLAIN QUERY PLAN.
   */
  function freshRecordingSql(file: string): { fresh: DatabaseHandle; raw: Database.Database; seen: string[] } {
    const fresh = openDatabase(path.join(dir, file));
    // drizzle keeps the better-sqlite3 handle as $client (not in the Db type).
    const raw = (fresh.db as unknown as { $client: Database.Database }).$client;
    const seen: string[] = [];
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((source: string) => (seen.push(source), prepare(source))) as typeof raw.prepare;
    return { fresh, raw, seen };
  }
  const taskAndSession = (db: DatabaseHandle["db"]) => {
    const t = tasks.insertTask(db, { title: "t", agentProfileId: "mock" });
    return { t, s: sessions.insertSession(db, { taskId: t.id, agentProfileId: "mock" }) };
  };

  test("task recompute queries: open requests of a turn or of a session through messages_open_idx, the newest session without a bound LIMIT", () => {
    const { fresh, raw, seen } = freshRecordingSql("plans.db");
    try {
      const { t, s } = taskAndSession(fresh.db);
      const turn = turns.insertTurn(fresh.db, { sessionId: s.id });
      messages.insertMessage(fresh.db, {
        sessionId: s.id,
        taskId: t.id,
        turnId: turn.id,
        authorType: "agent",
        type: "permission_request",
        content: "?",
        requestsInput: true,
      });
      assert.equal(messages.listOpenRequests(fresh.db, s.id, turn.id).length, 1);
      assert.equal(sessions.latestSessionsByTask(fresh.db, [t.id]).get(t.id)?.id, s.id);
      assert.equal(messages.listOpenRequests(fresh.db, s.id).length, 1);
      const open = seen.find((q) => q.includes('from "messages"') && q.includes('"turn_id" = ?'));
      const openOfSession = seen.find((q) => q.includes('from "messages"') && q.includes("requests_input") && !q.includes('"turn_id" = ?'));
      const latest = seen.find((q) => q.includes('from "sessions"') && q.includes('"task_id" = ?'));
      assert.ok(open !== undefined && openOfSession !== undefined && latest !== undefined, seen.join("\n"));
      const planOf = (query: string, ...args: string[]) =>
        (raw.prepare(`EXPLAIN QUERY PLAN ${query}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail).join("; ");
      assert.match(planOf(open, "s", "t"), /USING INDEX messages_open_idx/);
      // Without a turn too (a session before its first turn, settleOpenRequests): not a walk of
      // every message of the session through messages_session_idx.
      const sessionPlan = planOf(openOfSession, "s");
      assert.match(sessionPlan, /USING (COVERING )?INDEX messages_open_idx/);
      assert.doesNotMatch(sessionPlan, /messages_session_idx/);
      // A bound LIMIT makes SQLite re-prepare the statement on every run (about 4x its cost).
      assert.doesNotMatch(latest, /limit \?/i);
    } finally {
      fresh.close();
    }
  });

  test("clarifications_dedup_idx holds ask-tool records only: an elicitation writes no entry; the dedup lookup still uses it", () => {
    const { fresh, raw, seen } = freshRecordingSql("dedup.db");
    try {
      const { t, s } = taskAndSession(fresh.db);
      const ask = (pendingId: string, source: "elicitation" | "kandev_tool", dedupKey: string | null) => {
        const m = messages.insertMessage(fresh.db, {
          sessionId: s.id,
          taskId: t.id,
          turnId: null,
          authorType: "agent",
          type: "clarification_request",
          content: "?",
          requestsInput: true,
        });
        clarifications.insertClarification(fresh.db, {
          pendingId,
          sessionId: s.id,
          taskId: t.id,
          turnId: null,
          messageId: m.id,
          source,
          executionId: "e",
          toolCallId: null,
          message: "?",
          questions: [],
          deadline: null,
          dedupKey,
        });
      };
      for (let i = 0; i < 50; i++) ask(`el-${i}`, "elicitation", null);
      ask("kt-1", "kandev_tool", "key-1");
      const entries = (
        raw.prepare("SELECT sum(ncell) AS n FROM dbstat WHERE name = 'clarifications_dedup_idx' AND pagetype = 'leaf'").get() as { n: number }
      ).n;
      assert.equal(entries, 1, "one entry: the ask-tool record's");
      assert.equal(clarifications.findPendingByDedupKey(fresh.db, s.id, "key-1")?.pendingId, "kt-1");
      assert.equal(clarifications.findPendingByDedupKey(fresh.db, s.id, "key-2"), undefined);
      const lookup = seen.find((q) => q.includes('from "clarifications"') && q.includes('"dedup_key" = ?'));
      assert.ok(lookup !== undefined, seen.join("\n"));
      const plan = (raw.prepare(`EXPLAIN QUERY PLAN ${lookup}`).all(s.id, "key-1", "kandev_tool", "pending") as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join("; ");
      assert.match(plan, /USING INDEX clarifications_dedup_idx/);
    } finally {
      fresh.close();
    }
  });

  test("migration 0004 upgrades a board created before it: the dedup index becomes partial, no record is lost", () => {
    // The migrations as they were before 0004: the same folder without it and its journal entry.
    const before = path.join(dir, "migrations-0003");
    fs.cpSync(defaultMigrationsFolder(), before, { recursive: true });
    for (const f of fs.readdirSync(before)) if (f.startsWith("0004_")) fs.rmSync(path.join(before, f));
    fs.rmSync(path.join(before, "meta", "0004_snapshot.json"));
    const journalFile = path.join(before, "meta", "_journal.json");
    const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: Array<{ idx: number }> };
    journal.entries = journal.entries.filter((e) => e.idx < 4);
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    const file = path.join(dir, "upgraded.db");
    const indexSql = (h: DatabaseHandle) =>
      (h.sqlite.prepare("SELECT sql FROM sqlite_master WHERE name = 'clarifications_dedup_idx'").get() as { sql: string }).sql;
    const old = openDatabase(file, { migrationsFolder: before });
    // The task and session rows as that board's schema had them (later migrations add columns).
    old.sqlite.prepare("INSERT INTO tasks (id, title, state, agent_profile_id) VALUES ('t-old', 't', 'TODO', 'mock')").run();
    old.sqlite.prepare("INSERT INTO sessions (id, task_id, agent_profile_id, state) VALUES ('s-old', 't-old', 'mock', 'CREATED')").run();
    const t = { id: "t-old" };
    const s = { id: "s-old" };
    for (const [pendingId, source, dedupKey] of [
      ["el-1", "elicitation", null],
      ["kt-1", "kandev_tool", "key-1"],
    ] as const) {
      const m = messages.insertMessage(old.db, {
        sessionId: s.id,
        taskId: t.id,
        turnId: null,
        authorType: "agent",
        type: "clarification_request",
        content: "?",
        requestsInput: true,
      });
      clarifications.insertClarification(old.db, {
        pendingId,
        sessionId: s.id,
        taskId: t.id,
        turnId: null,
        messageId: m.id,
        source,
        executionId: "e",
        toolCallId: null,
        message: "?",
        questions: [],
        deadline: null,
        dedupKey,
      });
    }
    assert.doesNotMatch(indexSql(old), /WHERE/);
    old.close();
    const upgraded = openDatabase(file);
    try {
      assert.match(indexSql(upgraded), /WHERE dedup_key IS NOT NULL/);
      assert.deepEqual(
        clarifications
          .listPending(upgraded.db, { sessionId: s.id })
          .map((r) => r.pendingId)
          .sort(),
        ["el-1", "kt-1"],
      );
      assert.equal(clarifications.findPendingByDedupKey(upgraded.db, s.id, "key-1")?.pendingId, "kt-1");
      assert.equal(upgraded.sqlite.pragma("integrity_check", { simple: true }), "ok");
    } finally {
      upgraded.close();
    }
  });

  test("inTransaction: commits, rolls everything back when the body throws, and nests as a savepoint", () => {
    const db = handle.db;
    const count = () => tasks.listTasks(db).length;
    const before = count();
    assert.equal(
      inTransaction(db, () => (tasks.insertTask(db, { title: "kept", agentProfileId: "mock" }), 7)),
      7,
    );
    assert.equal(count(), before + 1);
    const failing = () =>
      inTransaction(db, () => {
        tasks.insertTask(db, { title: "gone", agentProfileId: "mock" });
        throw new Error("boom");
      });
    assert.throws(failing, /boom/);
    assert.equal(count(), before + 1, "the failed body left nothing");
    inTransaction(db, () => {
      tasks.insertTask(db, { title: "outer", agentProfileId: "mock" });
      assert.throws(() =>
        inTransaction(db, () => {
          tasks.insertTask(db, { title: "inner", agentProfileId: "mock" });
          throw new Error("inner");
        }),
      );
    });
    assert.deepEqual(
      tasks
        .listTasks(db)
        .map((t) => t.title)
        .filter((t) => t === "outer" || t === "inner"),
      ["outer"],
      "only the inner savepoint rolled back",
    );
  });

  test("notification deliveries are claimed once per kind + dedup key", () => {
    const db = handle.db;
    const input = { kind: "session.clarification_requested", dedupKey: "pending-1", taskId: "t", sessionId: "s" };
    assert.equal(claimDelivery(db, input), true);
    assert.equal(claimDelivery(db, input), false);
    assert.equal(claimDelivery(db, { ...input, kind: "session.turn_finished" }), true);
  });

  test("flag overrides: set, replace, clear; FlagService resolves once and reports overrides", () => {
    const db = handle.db;
    overrides.setOverride(db, "features.acpElicitation", true);
    overrides.setOverride(db, "features.acpElicitation", false);
    overrides.setOverride(db, "gone.flag", true);
    assert.deepEqual(overrides.listOverrides(db), { "features.acpElicitation": false, "gone.flag": true });
    const svc = new FlagService(db, "prod", {});
    assert.deepEqual(svc.features(), { acpElicitation: false });
    const patched = svc.setOverride("features.acpElicitation", true);
    assert.equal(patched.value, false, "the value in force does not change before a restart");
    assert.equal(patched.override, true);
    assert.equal(new FlagService(db, "prod", {}).features().acpElicitation, true, "the next start sees the override");
    assert.equal(new FlagService(db, "prod", { "features.acpElicitation": false }).list()[0]!.source, "env");
    svc.setOverride("features.acpElicitation", null);
    assert.equal(svc.list()[0]!.override, null);
    assert.throws(() => svc.setOverride("gone.flag", true), /unknown runtime flag/);
    assert.equal(svc.list().length, 1, "unknown stored keys are not listed");
  });
});
