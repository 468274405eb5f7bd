// FollowUps on its own: what runs after a new question's push, with the database's answers
// scripted. service.test.ts runs it over a real SQLite file (a lock included).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Task } from "@kandev/protocol";
import type { Logger } from "../logger.js";
import { FollowUps, type FollowUp, type FollowUpsOptions } from "./follow-ups.js";

function sqliteError(code: string): Error {
  return Object.assign(new Error(`${code}: scripted`), { name: "SqliteError", code });
}

/** A FollowUps whose database, pushes, notifications, log and event loop are recorded and scripted. */
function harness(overrides: Partial<FollowUpsOptions> = {}) {
  const calls: string[] = [];
  const errors: Array<{ msg: string; fields: Record<string, unknown> }> = [];
  const deferred: Array<() => void> = [];
  const failures: Error[] = [];
  const logger = { error: (msg: string, fields: Record<string, unknown> = {}) => errors.push({ msg, fields }), warn() {}, info() {}, debug() {} } as unknown as Logger;
  const followUps = new FollowUps({
    recompute: (ids) => {
      calls.push(`recompute ${ids.join(",")}`);
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      return ids.map((id) => ({ id, title: `title ${id}` }) as unknown as Task);
    },
    announce: (task) => calls.push(`announce ${task.id}`),
    notify: (f, task) => calls.push(`notify ${f.pendingId} ${task?.id ?? "-"}`),
    logger,
    defer: (fn) => deferred.push(fn),
    retryMs: 10,
    ...overrides,
  });
  const turn = () => deferred.splice(0).forEach((fn) => fn());
  return { followUps, calls, errors, failures, turn };
}

const q = (pendingId: string, taskId: string): FollowUp => ({ pendingId, sessionId: `s-${taskId}`, taskId });

describe("FollowUps", () => {
  test("nothing runs until the next turn; then one recompute for the turn's tasks, their pushes, one notification per question", () => {
    const { followUps, calls, turn } = harness();
    followUps.add(q("p1", "t1"));
    followUps.add(q("p2", "t1"));
    followUps.add(q("p3", "t2"));
    assert.deepEqual(calls, []);
    assert.equal(followUps.size, 3);
    turn();
    assert.deepEqual(calls, ["recompute t1,t2", "announce t1", "announce t2", "notify p1 t1", "notify p2 t1", "notify p3 t2"]);
    assert.equal(followUps.size, 0);
  });

  test("a settled question's task is recomputed with the turn's other tasks, once each, and notifies nobody", () => {
    const { followUps, calls, turn } = harness();
    followUps.task("t1");
    followUps.add(q("p2", "t2"));
    followUps.task("t2");
    assert.equal(followUps.size, 3);
    turn();
    assert.deepEqual(calls, ["recompute t1,t2", "announce t1", "announce t2", "notify p2 t2"]);
    assert.equal(followUps.size, 0);
  });

  test("a question settled before the turn: its task is recomputed, it is not notified", () => {
    const { followUps, calls, turn } = harness();
    followUps.add(q("p1", "t1"));
    followUps.add(q("p2", "t1"));
    followUps.settled("p1");
    followUps.settled("unknown");
    turn();
    assert.deepEqual(calls, ["recompute t1", "announce t1", "notify p2 t1"]);
  });

  test("a recompute the database refuses is logged once and tried again until written; the notification does not wait", async () => {
    const { followUps, calls, errors, failures, turn } = harness();
    failures.push(sqliteError("SQLITE_BUSY"), sqliteError("SQLITE_FULL"));
    followUps.add(q("p1", "t1"));
    turn();
    assert.deepEqual(calls, ["recompute t1", "notify p1 -"]);
    assert.equal(followUps.size, 1, "the task waits for its retry");
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(calls.slice(2), ["recompute t1", "recompute t1", "announce t1"]);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.msg, /will retry/);
    assert.deepEqual(errors[0]!.fields["task_ids"], ["t1"]);
    assert.equal(followUps.size, 0);
  });

  test("a task refused earlier is recomputed with the next turn's questions", () => {
    const { followUps, calls, failures, turn } = harness({ retryMs: 60_000 });
    failures.push(sqliteError("SQLITE_BUSY"));
    followUps.add(q("p1", "t1"));
    turn();
    followUps.add(q("p2", "t2"));
    turn();
    assert.deepEqual(calls, ["recompute t1", "notify p1 -", "recompute t1,t2", "announce t1", "announce t2", "notify p2 t2"]);
    followUps.close();
  });

  test("a bug in the recompute or in one notification is logged, not thrown, and the rest still run", () => {
    const { followUps, calls, errors, failures, turn } = harness({
      notify: (f) => {
        if (f.pendingId === "p1") throw new Error("boom");
        calls.push(`notify ${f.pendingId}`);
      },
    });
    failures.push(new TypeError("not a database error"));
    followUps.add(q("p1", "t1"));
    followUps.add(q("p2", "t1"));
    assert.doesNotThrow(turn);
    assert.deepEqual(calls, ["recompute t1", "notify p2"]);
    assert.deepEqual(
      errors.map((e) => e.msg),
      ["BUG: could not recompute the tasks of changed clarifications", "could not send a new question's notification"],
    );
    assert.equal(followUps.size, 0, "a bug is not retried");
  });

  test("close runs what waits, schedules nothing more, and names the tasks it could not write", () => {
    const { followUps, calls, errors, failures, turn } = harness();
    followUps.add(q("p1", "t1"));
    failures.push(sqliteError("SQLITE_BUSY"));
    followUps.close();
    assert.deepEqual(calls, ["recompute t1", "notify p1 -"]);
    assert.deepEqual(errors.at(-1), { msg: "tasks whose state could not be recomputed", fields: { task_ids: ["t1"] } });
    followUps.add(q("p2", "t2"));
    turn();
    assert.deepEqual(calls, ["recompute t1", "notify p1 -"], "nothing runs after close");
    assert.equal(followUps.size, 1, "only the task it could not write is left, and logged");
  });
});
