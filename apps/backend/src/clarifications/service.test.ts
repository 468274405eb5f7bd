// The clarification store and the answer fork over a real SQLite file, with agentctl played by a
// scripted target. The same paths run over real processes in test/clarifications-*.test.ts; here
// the interleavings that real processes cannot force are pinned (collisions, dedup, races).
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import { ProtocolError, type ElicitationRespondParams, type KandevAskResult, type Message, type Notification, type Question, type Task } from "@kandev/protocol";
import { openDatabase, type DatabaseHandle } from "../db/client.js";
import { HttpError } from "../http/errors.js";
import { LiveStore } from "../lifecycle/store.js";
import { silentLogger } from "../logger.js";
import { NotificationService } from "../notifications/service.js";
import * as messagesRepo from "../repos/messages.js";
import * as sessionsRepo from "../repos/sessions.js";
import * as tasksRepo from "../repos/tasks.js";
import * as turnsRepo from "../repos/turns.js";
import type { Publisher } from "../ws/hub.js";
import { respondToClarification } from "./respond.js";
import { ClarificationService, type ClarificationContext, type ElicitationTarget } from "./service.js";

const QUESTIONS: Question[] = [
  { id: "question_0", kind: "single", title: "Colour", prompt: "Which colour?", options: [{ id: "Red", label: "Red" }, { id: "Blue", label: "Blue" }] },
];
const KANDEV_INPUT = { questions: [{ id: "db", prompt: "Which database?", options: [{ id: "pg", label: "Postgres" }, { id: "lite", label: "SQLite" }] }] };
const ANSWER = { answers: [{ question_id: "question_0", selected_options: ["Red"] }] };
const KANDEV_ANSWER = { answers: [{ question_id: "db", selected_options: ["pg"] }] };

/** The next turn of the event loop, when a new question's follow-ups (task, notification) have run. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

class Recorder implements Publisher {
  added: Message[] = [];
  updated: Message[] = [];
  notifications: Notification[] = [];
  tasks: Task[] = [];
  /** Every push in order, as `kind:id` (a message's or task's id, a notification's pending id). */
  order: string[] = [];
  taskUpdated(t: Task): void {
    this.tasks.push(t);
    this.order.push(`task:${t.id}`);
  }
  sessionUpdated(): void {}
  messageAdded(m: Message): void {
    this.added.push(m);
    this.order.push(`message:${m.id}`);
  }
  messageUpdated(m: Message): void {
    this.updated.push(m);
  }
  notify(n: Notification): void {
    this.notifications.push(n);
    this.order.push(`notification:${n.pending_id}`);
  }
}

/** agentctl's side of the fork, scripted: each respond gets the next verdict (default success). */
class ScriptedTarget implements ElicitationTarget {
  sent: ElicitationRespondParams[] = [];
  verdicts: Array<ProtocolError | null> = [];
  /** What agentctl does before its success arrives (e.g. its settle event, as it really is sent first). */
  onRespond: (() => void) | null = null;
  constructor(public executionId: string) {}
  async respondElicitation(params: ElicitationRespondParams): Promise<void> {
    this.sent.push(params);
    const v = this.verdicts.shift();
    if (v) throw v;
    this.onRespond?.();
  }
}

/** Runs `fn` and returns the SQL of every statement it executed on `handle`'s connection, in order. */
async function countStatements(handle: DatabaseHandle, fn: (executed: readonly string[]) => Promise<void>): Promise<string[]> {
  type Methods = Record<"run" | "get" | "all" | "iterate", (...args: unknown[]) => unknown>;
  const proto = Object.getPrototypeOf(handle.sqlite.prepare("SELECT 1")) as Methods & { source: string };
  const saved = { run: proto.run, get: proto.get, all: proto.all, iterate: proto.iterate };
  const executed: string[] = [];
  for (const name of ["run", "all", "iterate"] as const) {
    const original = saved[name];
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      executed.push(this.source.split(/\s+/).slice(0, 4).join(" "));
      return original.apply(this, args);
    };
  }
  // The driver's get() of a write with RETURNING runs all() (db/client.ts): count it once.
  proto.get = function (this: { source: string; reader: boolean; readonly: boolean }, ...args: unknown[]) {
    if (!(this.reader && !this.readonly)) executed.push(this.source.split(/\s+/).slice(0, 4).join(" "));
    return saved.get.apply(this, args);
  };
  try {
    await fn(executed);
  } finally {
    Object.assign(proto, saved);
  }
  return executed;
}

describe("ClarificationService over SQLite", () => {
  let dir: string;
  let handle: DatabaseHandle;
  let recorder: Recorder;
  let store: LiveStore;
  let service: ClarificationService;
  let flagOn = true;
  const targets = new Map<string, ScriptedTarget>();

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-"));
    handle = openDatabase(path.join(dir, "kandev.db"));
    recorder = new Recorder();
    store = new LiveStore(handle.db, recorder);
    const notifications = new NotificationService(handle.db, recorder, silentLogger);
    service = new ClarificationService({
      store,
      notifications,
      logger: silentLogger,
      features: {
        get acpElicitation() {
          return flagOn;
        },
      },
      kandevWaitMs: 60_000,
      liveTarget: (sessionId) => targets.get(sessionId),
    });
  });
  after(() => {
    service.shutdown();
    handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A task with a RUNNING session mid-turn, whose agentctl is the returned scripted target. */
  function liveSession(): { ctx: ClarificationContext; target: ScriptedTarget } {
    const db = handle.db;
    const task = tasksRepo.insertTask(db, { title: "Ship the button", agentProfileId: "mock" });
    const session = sessionsRepo.insertSession(db, { taskId: task.id, agentProfileId: "mock" });
    const turn = turnsRepo.insertTurn(db, { sessionId: session.id });
    store.updateSession(session.id, { state: "RUNNING", currentTurnId: turn.id });
    const ctx = { sessionId: session.id, taskId: task.id, turnId: turn.id, executionId: `exec-${session.id}` };
    const target = new ScriptedTarget(ctx.executionId);
    targets.set(session.id, target);
    return { ctx, target };
  }
  const requested = (pendingId: string) => ({ pending_id: pendingId, session_id: "acp", tool_call_id: "toolu_1", message: "Pick", questions: QUESTIONS, deadline: "2030-01-01T00:00:00.000Z" });
  const messageOf = (pendingId: string) => messagesRepo.listMessages(handle.db, service.get(pendingId)!.session_id).find((m) => m.metadata.pending_id === pendingId)!;
  const task = (ctx: ClarificationContext) => tasksRepo.getTask(handle.db, ctx.taskId)!;
  async function httpError(p: Promise<unknown>): Promise<HttpError> {
    try {
      await p;
    } catch (err) {
      if (err instanceof HttpError) return err;
      throw err;
    }
    throw new Error("expected an HttpError");
  }

  test("AC-08 an elicitation becomes a pending record and message; the task waits for input; F9 one notification", async () => {
    const { ctx } = liveSession();
    recorder.order = [];
    assert.equal(service.onElicitationRequested(ctx, requested("e-1")), true);
    const m = messageOf("e-1");
    assert.deepEqual([m.authorType, m.type, m.requestsInput, m.turnId], ["agent", "clarification_request", true, ctx.turnId]);
    assert.equal(m.metadata.source, "elicitation");
    // The question's own push goes first and alone; its task and notification follow on the next turn.
    assert.deepEqual(recorder.order, [`message:${m.id}`]);
    await nextTurn();
    assert.deepEqual(recorder.order, [`message:${m.id}`, `task:${ctx.taskId}`, "notification:e-1"]);
    assert.deepEqual([task(ctx).state, task(ctx).pendingAction], ["WAITING_FOR_INPUT", "clarification"]);
    assert.deepEqual([recorder.tasks.at(-1)!.state, recorder.tasks.at(-1)!.pending_action], ["WAITING_FOR_INPUT", "clarification"]);
    const sent = recorder.notifications.filter((n) => n.pending_id === "e-1");
    assert.equal(sent.length, 1);
    assert.doesNotMatch(JSON.stringify(sent[0]), /Which colour/);
  });

  test("questions of one turn share one recompute of their task, pushed once, then one notification each", async () => {
    await nextTurn(); // earlier tests' follow-ups
    const { ctx } = liveSession();
    recorder.order = [];
    const executed = await countStatements(handle, async () => {
      service.onElicitationRequested(ctx, requested("t-1"));
      service.onElicitationRequested(ctx, requested("t-2"));
      await nextTurn();
    });
    assert.deepEqual(recorder.order.slice(2), [`task:${ctx.taskId}`, "notification:t-1", "notification:t-2"]);
    assert.equal(executed.filter((sql) => sql.startsWith("update")).length, 1, executed.join("\n"));
  });

  test("a settle's task is recomputed on the next turn, after the settle's own push", async () => {
    const { ctx } = liveSession();
    service.onElicitationRequested(ctx, requested("st-1"));
    await nextTurn();
    assert.equal(task(ctx).pendingAction, "clarification");
    recorder.order = [];
    service.onElicitationSettled(ctx, { pending_id: "st-1", outcome: "timed_out", reason: "deadline" });
    const m = messageOf("st-1");
    assert.deepEqual([m.requestsInput, m.metadata.status], [false, "timed_out"], "the record and message at once");
    assert.deepEqual(recorder.order, [], "the message update is pushed (messageUpdated), the task not yet");
    assert.equal(recorder.updated.at(-1)?.id, m.id);
    assert.equal(task(ctx).pendingAction, "clarification", "the task's recompute waits for the next turn");
    await nextTurn();
    assert.deepEqual(recorder.order, [`task:${ctx.taskId}`]);
    assert.deepEqual([task(ctx).state, task(ctx).pendingAction], ["IN_PROGRESS", null]);
    assert.equal(recorder.tasks.at(-1)!.pending_action, null);
  });

  test("shutdown writes the settles the database refused, and then their tasks' state", async (t) => {
    const { ctx } = liveSession();
    const own = new ClarificationService({ ...service.options });
    own.onElicitationRequested(ctx, requested("sd-1"));
    await nextTurn();
    assert.equal(task(ctx).pendingAction, "clarification");
    const other = new Database(path.join(dir, "kandev.db"));
    handle.sqlite.pragma("busy_timeout = 0");
    t.after(() => {
      handle.sqlite.pragma("busy_timeout = 1000");
      other.close();
    });
    other.exec("BEGIN EXCLUSIVE");
    own.onElicitationSettled(ctx, { pending_id: "sd-1", outcome: "cancelled", reason: "agent_cancelled" });
    other.exec("ROLLBACK");
    assert.equal(own.hasDeferredSettle("sd-1"), true, "refused during the lock, kept");
    own.shutdown();
    assert.equal(service.get("sd-1")!.status, "cancelled");
    assert.deepEqual([task(ctx).state, task(ctx).pendingAction], ["IN_PROGRESS", null]);
  });

  test("a question settled before its follow-up ran is not notified; its task does not wait", async () => {
    const { ctx } = liveSession();
    service.onElicitationRequested(ctx, requested("q-gone"));
    service.onElicitationSettled(ctx, { pending_id: "q-gone", outcome: "cancelled", reason: "agent_cancelled" });
    await nextTurn();
    assert.equal(recorder.notifications.filter((n) => n.pending_id === "q-gone").length, 0);
    assert.deepEqual([task(ctx).state, task(ctx).pendingAction], ["IN_PROGRESS", null]);
  });

  test("a task's state the database refused (locked) is written once it takes writes again; the notification does not wait", async (t) => {
    const { ctx } = liveSession();
    const other = new Database(path.join(dir, "kandev.db"));
    handle.sqlite.pragma("busy_timeout = 0");
    t.after(() => {
      handle.sqlite.pragma("busy_timeout = 1000");
      other.close();
    });
    service.onElicitationRequested(ctx, requested("l-1"));
    other.exec("BEGIN EXCLUSIVE");
    try {
      await nextTurn();
      assert.equal(recorder.notifications.filter((n) => n.pending_id === "l-1").length, 1, "notified while the task could not be written");
      assert.equal(task(ctx).pendingAction, null, "not written during the lock");
    } finally {
      other.exec("ROLLBACK");
    }
    const deadline = Date.now() + 5_000;
    while (task(ctx).pendingAction === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual([task(ctx).state, task(ctx).pendingAction], ["WAITING_FOR_INPUT", "clarification"]);
    assert.equal(recorder.tasks.at(-1)!.pending_action, "clarification", "and pushed");
  });

  test("AC-60 a colliding pending id is an error, never an overwrite", () => {
    const { ctx } = liveSession();
    assert.equal(service.onElicitationRequested(ctx, requested("e-dup")), true);
    const other = liveSession();
    assert.equal(service.onElicitationRequested(other.ctx, { ...requested("e-dup"), message: "other" }), false);
    assert.equal(service.get("e-dup")!.session_id, ctx.sessionId);
    assert.equal(service.get("e-dup")!.message, "Pick");
    assert.equal(messagesRepo.listMessages(handle.db, other.ctx.sessionId).length, 0, "no message for the refused one");
  });

  test("F9 a replayed elicitation.requested notifies once, also after a restart; a refused one never", async () => {
    const { ctx } = liveSession();
    assert.equal(service.onElicitationRequested(ctx, requested("e-replay")), true);
    assert.equal(service.onElicitationRequested(ctx, requested("e-replay")), false, "agentctl's replay after a reconnect");
    await nextTurn();
    const restarted = new ClarificationService({
      store: new LiveStore(handle.db, recorder),
      notifications: new NotificationService(handle.db, recorder, silentLogger),
      logger: silentLogger,
      features: { acpElicitation: true },
      kandevWaitMs: 60_000,
      liveTarget: (sessionId) => targets.get(sessionId),
    });
    try {
      assert.equal(restarted.onElicitationRequested(ctx, requested("e-replay")), false, "the replay reaches a restarted backend");
      await nextTurn();
    } finally {
      restarted.shutdown();
    }
    assert.equal(recorder.notifications.filter((n) => n.pending_id === "e-replay").length, 1);
    // A request whose record cannot be stored (its session is gone) notifies nobody.
    handle.sqlite.prepare("DELETE FROM sessions WHERE id = ?").run(ctx.sessionId);
    assert.equal(service.onElicitationRequested(ctx, requested("e-orphan")), false);
    await nextTurn();
    assert.equal(recorder.notifications.filter((n) => n.pending_id === "e-orphan").length, 0);
  });

  test("AC-12f D4 identical elicitations are two records; answering one leaves the other pending", async () => {
    const { ctx, target } = liveSession();
    service.onElicitationRequested(ctx, requested("e-a"));
    service.onElicitationRequested(ctx, requested("e-b"));
    assert.deepEqual(await respondToClarification(service, "e-a", ANSWER), { success: true, status: "answered" });
    assert.deepEqual(target.sent, [{ pending_id: "e-a", ...ANSWER }]);
    assert.equal(service.get("e-b")!.status, "pending");
    await nextTurn();
    assert.equal(task(ctx).pendingAction, "clarification");
  });

  test("AC-61 D5 an answered elicitation is still forwarded; agentctl's NOT_FOUND is the 404", async () => {
    const { ctx, target } = liveSession();
    service.onElicitationRequested(ctx, requested("e-twice"));
    await respondToClarification(service, "e-twice", ANSWER);
    target.verdicts.push(new ProtocolError("NOT_FOUND", "no pending elicitation e-twice"));
    const err = await httpError(respondToClarification(service, "e-twice", ANSWER));
    assert.deepEqual([err.status, err.code, err.message], [404, "NOT_FOUND", "no pending elicitation e-twice"]);
    assert.equal(target.sent.length, 2, "the second submission reached agentctl");
    assert.equal(service.get("e-twice")!.status, "answered");
    assert.deepEqual(service.get("e-twice")!.resolution?.answers, ANSWER.answers);
  });

  test("verdicts: VALIDATION_ERROR 400 and NOT_CONNECTED 503 leave the record open; NOT_FOUND settles an open one", async () => {
    const { ctx, target } = liveSession();
    service.onElicitationRequested(ctx, requested("e-v"));
    target.verdicts.push(new ProtocolError("VALIDATION_ERROR", "unknown question_id"), new ProtocolError("NOT_CONNECTED", "down"));
    assert.equal((await httpError(respondToClarification(service, "e-v", ANSWER))).status, 400);
    const down = await httpError(respondToClarification(service, "e-v", ANSWER));
    assert.deepEqual([down.status, down.code], [503, "agent_stream_not_connected"]);
    assert.equal(service.get("e-v")!.status, "pending");
    assert.equal(messageOf("e-v").requestsInput, true);
    target.verdicts.push(new ProtocolError("NOT_FOUND", "gone"));
    assert.equal((await httpError(respondToClarification(service, "e-v", ANSWER))).status, 404);
    assert.equal(service.get("e-v")!.status, "cancelled");
    await nextTurn();
    assert.equal(task(ctx).pendingAction, null);
  });

  test("agentctl's settle event lands first: the success adds what the operator chose", async () => {
    const { ctx } = liveSession();
    service.onElicitationRequested(ctx, requested("e-first"));
    service.onElicitationSettled(ctx, { pending_id: "e-first", outcome: "declined", reason: "operator_rejected" });
    const r = await respondToClarification(service, "e-first", { answers: [], rejected: true, reject_reason: "not now" });
    assert.deepEqual(r, { success: true, status: "declined" });
    assert.deepEqual(service.get("e-first")!.resolution?.answers, []);
    assert.equal(messageOf("e-first").metadata.reject_reason, "not now");
  });

  test("a question's round trip, as the benchmark runs it, costs 22 SQL statements, 4 of them before the question's push", async () => {
    // The hot path of `npm run bench` (docs/BENCHMARKS.md): ask (its record and message, pushed;
    // then its task, follow-ups.ts), agentctl's settle event (sent before its success, on the same
    // stream; its record and message, pushed; then its task), the operator's answer. Each statement is a few hundredths of a millisecond of the
    // backend's one thread; more means a regression, most of all before the push.
    await nextTurn(); // earlier tests' follow-ups
    const { ctx, target } = liveSession();
    target.onRespond = () => service.onElicitationSettled(ctx, { pending_id: "n-1", outcome: "answered", reason: "operator" });
    let beforePush: string[] = [];
    const executed = await countStatements(handle, async (sofar) => {
      service.onElicitationRequested(ctx, requested("n-1"));
      beforePush = [...sofar];
      assert.equal(recorder.added.at(-1)?.metadata["pending_id"], "n-1", "pushed when onElicitationRequested returns");
      await nextTurn(); // the operator answers what was pushed, so after the question's follow-ups
      assert.deepEqual(await respondToClarification(service, "n-1", ANSWER), { success: true, status: "answered" });
      await nextTurn(); // the settle's task
    });
    assert.deepEqual(service.get("n-1")!.resolution?.answers, ANSWER.answers);
    assert.equal(recorder.notifications.filter((n) => n.pending_id === "n-1")[0]?.title.includes("Ship the button"), true);
    assert.deepEqual(beforePush.map((sql) => sql.split(" ").slice(0, 3).join(" ")), ["BEGIN DEFERRED", 'insert into "messages"', 'insert into "clarifications"', "COMMIT"]);
    assert.equal(executed.length, 22, executed.join("\n"));
  });

  test("F7 agentctl's settle events mark record and message; the task no longer waits", async () => {
    const { ctx } = liveSession();
    for (const [id, outcome, reason, status] of [
      ["s-1", "timed_out", "deadline", "timed_out"],
      ["s-2", "cancelled", "agent_cancelled", "cancelled"],
      ["s-3", "cancelled", "agent_exited", "agent_disconnected"],
    ] as const) {
      service.onElicitationRequested(ctx, requested(id));
      service.onElicitationSettled(ctx, { pending_id: id, outcome, reason });
      const m = messageOf(id);
      assert.deepEqual([m.requestsInput, m.metadata.status, (m.metadata.resolution as { by: string }).by], [false, status, reason]);
    }
    await nextTurn();
    assert.deepEqual([task(ctx).state, task(ctx).pendingAction], ["IN_PROGRESS", null]);
    service.onElicitationSettled({ ...ctx, executionId: "someone-else" }, { pending_id: "s-1", outcome: "answered", reason: "operator" });
    assert.equal(service.get("s-1")!.status, "timed_out", "first settle wins; other executions cannot touch it");
  });

  test("agentctl gone: settleExecution settles both sources; a late answer is 404 yet recorded on the message", async () => {
    const { ctx, target } = liveSession();
    service.onElicitationRequested(ctx, requested("g-1"));
    const asked = service.askKandev(ctx, { session_id: null, questions: KANDEV_INPUT.questions });
    assert.equal(service.settleExecution(ctx.executionId), 2);
    await assert.rejects(asked, (err: unknown) => err instanceof ProtocolError && err.code === "NOT_CONNECTED");
    targets.delete(ctx.sessionId);
    const err = await httpError(respondToClarification(service, "g-1", ANSWER));
    assert.equal(err.status, 404);
    assert.equal(target.sent.length, 0);
    const meta = messageOf("g-1").metadata;
    assert.equal(meta.status, "agent_disconnected");
    assert.deepEqual((meta.undelivered_answer as { answers: unknown }).answers, ANSWER.answers);
    await nextTurn();
    assert.equal(task(ctx).pendingAction, null);
  });

  test("AC-20 with the flag off an elicitation creates nothing and is declined", async () => {
    const { ctx, target } = liveSession();
    flagOn = false;
    try {
      assert.equal(service.onElicitationRequested(ctx, requested("off-1")), false);
    } finally {
      flagOn = true;
    }
    assert.equal(service.get("off-1"), undefined);
    assert.equal(messagesRepo.listMessages(handle.db, ctx.sessionId).length, 0);
    assert.equal(task(ctx).pendingAction, null);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(target.sent, [{ pending_id: "off-1", answers: [], rejected: true }]);
  });

  describe("kandev tool", () => {
    test("F3 invalid input is a VALIDATION_ERROR and creates nothing", () => {
      const { ctx } = liveSession();
      assert.throws(
        () => service.askKandev(ctx, { session_id: null, questions: [{ prompt: "p", options: [{ label: "one" }] }] }),
        (err: unknown) => err instanceof ProtocolError && err.code === "VALIDATION_ERROR" && /2-6 options/.test(err.message),
      );
      assert.equal(service.list({ sessionId: ctx.sessionId }).length, 0);
    });

    test("D4 a repeat with the same questions joins the same waiter; first answer wins, a later one is 409 with the winner", async () => {
      const { ctx } = liveSession();
      const first = service.askKandev(ctx, { session_id: null, questions: KANDEV_INPUT.questions });
      const again = service.askKandev(ctx, { session_id: null, questions: [{ ...KANDEV_INPUT.questions[0]!, prompt: "which  DATABASE?" }] });
      await nextTurn();
      const records = service.list({ sessionId: ctx.sessionId });
      assert.equal(records.length, 1);
      assert.equal(recorder.notifications.filter((n) => n.pending_id === records[0]!.pending_id).length, 1);
      const id = records[0]!.pending_id;
      assert.equal(task(ctx).state, "WAITING_FOR_INPUT");
      const bad = await httpError(respondToClarification(service, id, { answers: [] }));
      assert.deepEqual([bad.status, bad.code], [400, "VALIDATION_ERROR"]);
      assert.match(bad.message, /missing: db/);
      assert.deepEqual(await respondToClarification(service, id, KANDEV_ANSWER), { success: true, status: "answered" });
      const [a, b] = (await Promise.all([first, again])) as [KandevAskResult, KandevAskResult];
      assert.deepEqual(a, b);
      assert.match(a.text, /Which database\?\n {2}Answer: Postgres/);
      assert.deepEqual(a.answer, KANDEV_ANSWER);
      const late = await httpError(respondToClarification(service, id, { answers: [{ question_id: "db", selected_options: ["lite"] }] }));
      assert.deepEqual([late.status, late.code], [409, "CONFLICT"]);
      assert.deepEqual(late.details, { status: "answered", resolution: service.get(id)!.resolution });
      assert.deepEqual((late.details as { resolution: { answers: unknown } }).resolution.answers, KANDEV_ANSWER.answers);
      // A settled record asks nothing: a new identical call is a new record.
      const third = service.askKandev(ctx, { session_id: null, questions: KANDEV_INPUT.questions });
      assert.equal(service.list({ sessionId: ctx.sessionId }).length, 2);
      service.onTurnEnded(ctx.sessionId, ctx.turnId!, "cancelled");
      await assert.rejects(third, /withdrawn \(turn_cancelled\)/);
    });

    test("no answer in time: timed_out, and the agent reads that the operator did not answer in time", async () => {
      const { ctx } = liveSession();
      const quick = new ClarificationService({ ...service.options, kandevWaitMs: 30 });
      const keepAlive = setTimeout(() => undefined, 5_000);
      const result = await quick.askKandev(ctx, { session_id: null, questions: KANDEV_INPUT.questions });
      clearTimeout(keepAlive);
      assert.match(result.text, /did not answer in time/);
      const [rec] = service.list({ sessionId: ctx.sessionId });
      assert.equal(rec!.status, "timed_out");
      assert.equal(rec!.resolution?.by, "deadline");
      await nextTurn();
      assert.equal(task(ctx).pendingAction, null);
    });

    test("an ended turn settles kandev questions only; elicitations stay with agentctl", async () => {
      const { ctx } = liveSession();
      service.onElicitationRequested(ctx, requested("k-e"));
      const ended = service.askKandev(ctx, { session_id: null, questions: KANDEV_INPUT.questions });
      assert.equal(service.onTurnEnded(ctx.sessionId, ctx.turnId!, "end_turn"), 1);
      await assert.rejects(ended);
      assert.equal(service.get("k-e")!.status, "pending");
      const statuses = service.list({ sessionId: ctx.sessionId }).map((c) => [c.source, c.status, c.resolution?.by ?? null]);
      assert.deepEqual(statuses, [
        ["elicitation", "pending", null],
        ["kandev_tool", "cancelled", "turn_ended"],
      ]);
    });
  });

  test("restart: every record left pending becomes agent_disconnected; answered ones keep their answer", async () => {
    const { ctx } = liveSession();
    service.onElicitationRequested(ctx, requested("r-open"));
    service.onElicitationRequested(ctx, requested("r-done"));
    await respondToClarification(service, "r-done", ANSWER);
    const fresh = new ClarificationService({ ...service.options });
    assert.ok(fresh.reconcileLeftovers() >= 1);
    assert.equal(fresh.get("r-open")!.status, "agent_disconnected");
    assert.equal(fresh.get("r-open")!.resolution?.by, "backend_restarted");
    assert.equal(fresh.get("r-done")!.status, "answered");
    assert.deepEqual(fresh.get("r-done")!.resolution?.answers, ANSWER.answers);
    assert.equal(fresh.list({ status: "pending" }).length, 0);
  });

  test("an unknown pending id, or one whose session is gone, is 404", async () => {
    assert.equal((await httpError(respondToClarification(service, "nope", ANSWER))).status, 404);
    // respond looks up no session: a record cannot outlive its session (foreign key, cascade).
    const { ctx } = liveSession();
    service.onElicitationRequested(ctx, requested("gone-1"));
    handle.sqlite.prepare("DELETE FROM sessions WHERE id = ?").run(ctx.sessionId);
    assert.equal(service.get("gone-1"), undefined);
    assert.equal((await httpError(respondToClarification(service, "gone-1", ANSWER))).status, 404);
  });
});
