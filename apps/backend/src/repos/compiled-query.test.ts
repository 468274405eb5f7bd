import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, fillPlaceholders, sql } from "drizzle-orm";
import { openDatabase, type DatabaseHandle } from "../db/client.js";
import * as schema from "../db/schema.js";
import * as clarifications from "./clarifications.js";
import { claimDelivery } from "./notification-deliveries.js";
import { setSetting } from "./notification-settings.js";
import * as overrides from "./flag-overrides.js";
import * as messages from "./messages.js";
import * as profiles from "./profiles.js";
import { compileParams, compileQuery, compileRowMapper, compiledAs } from "./compiled-query.js";
import * as sessions from "./sessions.js";
import * as tasks from "./tasks.js";
import * as turns from "./turns.js";
import { prepared } from "./util.js";

/** Every table of the schema, by the name the tests print. */
const TABLES = {
  agentProfiles: schema.agentProfiles,
  tasks: schema.tasks,
  sessions: schema.sessions,
  turns: schema.turns,
  messages: schema.messages,
  runtimeFlagOverrides: schema.runtimeFlagOverrides,
  notificationDeliveries: schema.notificationDeliveries,
  clarifications: schema.clarifications,
  notificationSettings: schema.notificationSettings,
};

describe("compiled prepared queries over a real SQLite file", () => {
  let dir: string;
  let handle: DatabaseHandle;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-rows-"));
    handle = openDatabase(path.join(dir, "kandev.db"));
    const db = handle.db;
    // Rows with every column kind the schema has: JSON (objects, arrays, null), booleans, integers,
    // text and NULLs, so each decoder runs on both a value and a NULL.
    profiles.insertProfile(db, { id: "p-env", name: "With env", command: ["node", "a.js"], env: { K: "v" } });
    profiles.insertProfile(db, { id: "p-bare", name: "Bare", command: ["x"] });
    profiles.upsertBuiltinProfile(db, { id: "mock", name: "Mock", command: ["node", "mock.js"] });
    const task = tasks.insertTask(db, { title: "Rows", agentProfileId: "p-env" });
    const session = sessions.insertSession(db, { taskId: task.id, agentProfileId: "p-env" });
    const turn = turns.insertTurn(db, { sessionId: session.id });
    const base = { sessionId: session.id, taskId: task.id, authorType: "agent" as const };
    const asked = messages.insertMessage(db, { ...base, turnId: turn.id, type: "clarification_request", content: "Which?", requestsInput: true, metadata: { pending_id: "c-1", nested: { list: [1, "two", null] } } });
    messages.insertMessage(db, { ...base, turnId: null, type: "status", content: "plain" });
    clarifications.insertClarification(db, {
      pendingId: "c-1",
      sessionId: session.id,
      taskId: task.id,
      turnId: turn.id,
      messageId: asked.id,
      source: "elicitation",
      executionId: "e-1",
      toolCallId: null,
      message: "Which?",
      questions: [{ id: "q", kind: "single", prompt: "Which?", options: [{ id: "a", label: "A" }] }],
      deadline: null,
      dedupKey: null,
    });
    clarifications.insertClarification(db, {
      pendingId: "c-2",
      sessionId: session.id,
      taskId: task.id,
      turnId: null,
      messageId: asked.id,
      source: "kandev_tool",
      executionId: "e-1",
      toolCallId: "t-1",
      message: "",
      questions: [],
      deadline: "2026-12-01T00:00:00.000Z",
      dedupKey: "k",
    });
    clarifications.settleClarification(db, "c-2", "answered", { by: "operator", at: "2026-11-30T00:00:00.000Z", answers: [{ question_id: "q", selected_options: ["a"] }] });
    overrides.setOverride(db, "features.acpElicitation", true);
    claimDelivery(db, { kind: "turn_finished", dedupKey: "t-1", taskId: task.id, sessionId: session.id });
    setSetting(db, "turn_finished", false);
    setSetting(db, "clarification_requested", true);
  });
  after(() => {
    handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, table] of Object.entries(TABLES)) {
    test(`${name}: the compiled mapper gives exactly drizzle's rows (keys, order, JSON, booleans, NULLs)`, () => {
      const db = handle.db;
      const drizzles = db.select().from(table).prepare();
      const fast = compileQuery(db.select().from(table).prepare());
      assert.equal(compiledAs(fast), "rows", "a whole-table select gets the compiled mapper");
      assert.equal(compiledAs(drizzles), null);
      const expected = drizzles.all();
      assert.ok(expected.length > 0, `${name} has rows to compare`);
      const actual = fast.all();
      assert.deepStrictEqual(actual, expected);
      for (const [i, row] of actual.entries()) assert.deepStrictEqual(Object.keys(row), Object.keys(expected[i]!), "same key order");
      assert.deepStrictEqual(fast.get(), drizzles.get());
    });
  }

  test("placeholders and RETURNING: get() of a prepared update maps the written row, undefined when none", () => {
    const db = handle.db;
    const build = () =>
      db
        .update(schema.messages)
        .set({ requestsInput: sql.placeholder("open") as unknown as boolean })
        .where(eq(schema.messages.type, sql.placeholder("type")))
        .returning()
        .prepare();
    const fast = compileQuery(build());
    assert.equal(compiledAs(fast), "rows");
    const row = fast.get({ open: false, type: "clarification_request" });
    assert.equal(row?.requestsInput, false);
    assert.deepStrictEqual(row?.metadata, { pending_id: "c-1", nested: { list: [1, "two", null] } });
    assert.deepStrictEqual(row, build().get({ open: false, type: "clarification_request" }), "drizzle reads the same row back");
    assert.equal(fast.get({ open: true, type: "no-such-type" }), undefined);
    assert.throws(() => fast.get({ open: true }), /No value for placeholder "type"/, "a missing placeholder is still drizzle's error");
  });

  test("parameters: the compiled filler gives drizzle's values (placeholders, encoded placeholders, constants) and its error", () => {
    const db = handle.db;
    const query = db
      .update(schema.clarifications)
      .set({ resolution: sql.placeholder("resolution") as unknown as Record<string, unknown>, status: "expired", updatedAt: sql.placeholder("at") as unknown as string })
      .where(eq(schema.clarifications.pendingId, sql.placeholder("id")))
      .returning()
      .prepare() as unknown as { query: { params: unknown[] } };
    const values = { resolution: { by: "deadline", list: [1, null] }, at: "2026-11-30T01:02:03.000Z", id: "c-9" };
    const filled = compileParams(query.query.params)(values);
    assert.deepStrictEqual(filled, fillPlaceholders(query.query.params, values));
    assert.deepStrictEqual(filled, ["expired", '{"by":"deadline","list":[1,null]}', "2026-11-30T01:02:03.000Z", "c-9"], "JSON encoded, the constant kept");
    assert.throws(() => compileParams(query.query.params)({ resolution: null, at: "x" }), /^Error: No value for placeholder "id" was provided$/);
  });

  test("run() of a compiled insert writes what drizzle's writes: encoders, constants, defaults", () => {
    const db = handle.db;
    const build = () =>
      db
        .insert(schema.agentProfiles)
        .values({ id: sql.placeholder("id"), name: "Compiled", command: sql.placeholder("command"), env: sql.placeholder("env"), builtin: sql.placeholder("builtin") })
        .prepare();
    const fast = compileQuery(build());
    assert.equal(compiledAs(fast), "params", "no rows to map, parameters compiled");
    fast.run({ id: "p-fast", command: ["node", "x.js"], env: { A: "1" }, builtin: true });
    build().run({ id: "p-drizzle", command: ["node", "x.js"], env: { A: "1" }, builtin: true });
    const [a, b] = ["p-fast", "p-drizzle"].map((id) => db.select().from(schema.agentProfiles).where(eq(schema.agentProfiles.id, id)).get()!);
    assert.deepStrictEqual({ ...a, id: "", createdAt: "" }, { ...b, id: "", createdAt: "" });
    assert.deepStrictEqual([a!.command, a!.env, a!.builtin, a!.name], [["node", "x.js"], { A: "1" }, true, "Compiled"]);
    assert.throws(() => fast.run({ id: "p-x", command: [], env: null }), /No value for placeholder "builtin"/);
  });

  test("other shapes are left to drizzle entirely: nested fields, SQL fields, joins", () => {
    const db = handle.db;
    const nested = compileQuery(db.select({ task: { id: schema.tasks.id, title: schema.tasks.title } }).from(schema.tasks).prepare());
    const counted = compileQuery(db.select({ n: sql<number>`count(*)` }).from(schema.messages).prepare());
    const joined = compileQuery(
      db.select().from(schema.sessions).innerJoin(schema.tasks, eq(schema.sessions.taskId, schema.tasks.id)).prepare(),
    );
    for (const q of [nested, counted, joined]) assert.equal(compiledAs(q), null, "untouched: drizzle fills and maps");
    assert.equal(nested.get()?.task.title, "Rows");
    assert.equal(counted.get()?.n, 2);
    assert.equal(joined.get()?.tasks.title, "Rows");
  });

  test("the repositories' prepared queries use the compiled mapper", () => {
    const q = prepared(handle.db, "compiled-query.test", (d) => d.select().from(schema.tasks).where(eq(schema.tasks.id, sql.placeholder("id"))).prepare());
    assert.equal(compiledAs(q), "rows");
    assert.equal(q.get({ id: "nope" }), undefined);
  });

  test("a property name that is not a plain identifier is never written into the mapper", () => {
    const column = Object.values(schema.tasks).find((c) => c === schema.tasks.id)!;
    assert.equal(compileRowMapper([{ path: ["id"], field: column }]) !== undefined, true);
    assert.equal(compileRowMapper([{ path: ['x"]; process.exit(1); ["'], field: column }]), undefined);
    assert.equal(compileRowMapper([]), undefined);
  });
});
