// A ClarificationService over a real SQLite file, with agentctl played by a scripted target, for
// the unit tests beside the service (src/clarifications/service*.test.ts).
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ProtocolError, type ElicitationRespondParams, type Message, type Notification, type Question, type Task } from "@kandev/protocol";
import { ClarificationService, type ClarificationContext, type ElicitationTarget } from "../src/clarifications/service.js";
import { openDatabase, type DatabaseHandle } from "../src/db/client.js";
import { HttpError } from "../src/http/errors.js";
import { LiveStore } from "../src/lifecycle/store.js";
import { silentLogger } from "../src/logger.js";
import { NotificationService } from "../src/notifications/service.js";
import * as clarificationsRepo from "../src/repos/clarifications.js";
import * as messagesRepo from "../src/repos/messages.js";
import * as sessionsRepo from "../src/repos/sessions.js";
import * as tasksRepo from "../src/repos/tasks.js";
import * as turnsRepo from "../src/repos/turns.js";
import { toMessages } from "../src/views.js";
import type { Publisher } from "../src/ws/hub.js";

export const QUESTIONS: Question[] = [
  {
    id: "question_0",
    kind: "single",
    title: "Colour",
    prompt: "Which colour?",
    options: [
      { id: "Red", label: "Red" },
      { id: "Blue", label: "Blue" },
    ],
  },
];
export const KANDEV_INPUT = {
  questions: [
    {
      id: "db",
      prompt: "Which database?",
      options: [
        { id: "pg", label: "Postgres" },
        { id: "lite", label: "SQLite" },
      ],
    },
  ],
};
export const ANSWER = { answers: [{ question_id: "question_0", selected_options: ["Red"] }] };
export const KANDEV_ANSWER = { answers: [{ question_id: "db", selected_options: ["pg"] }] };

export class Recorder implements Publisher {
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
    this.order.push(`updated:${m.id}`);
  }
  messageAppended(): void {}
  notify(n: Notification): void {
    this.notifications.push(n);
    this.order.push(`notification:${n.pending_id}`);
  }
}

/**
 * agentctl's side of the fork, scripted as agentctl behaves: the first answer to a pending wins
 * and its `elicitation.settled` (carrying the answer and user) reaches the service before the
 * success; a later one is NOT_FOUND. `verdicts` overrides the next replies; `withholdSettle`
 * keeps the settle event back (as if it never arrived).
 */
export class ScriptedTarget implements ElicitationTarget {
  sent: ElicitationRespondParams[] = [];
  verdicts: Array<ProtocolError | null> = [];
  withholdSettle = false;
  private readonly answered = new Set<string>();
  constructor(
    public executionId: string,
    private readonly ctx: ClarificationContext,
    private readonly service: () => ClarificationService,
  ) {}
  async respondElicitation(params: ElicitationRespondParams): Promise<void> {
    this.sent.push(params);
    const v = this.verdicts.shift();
    if (v) throw v;
    if (this.answered.has(params.pending_id)) throw new ProtocolError("NOT_FOUND", `no pending elicitation ${params.pending_id}`);
    this.answered.add(params.pending_id);
    if (this.withholdSettle) return;
    const { pending_id, answers, reject_reason, user } = params;
    this.service().onElicitationSettled(this.ctx, {
      pending_id,
      outcome: params.rejected ? "declined" : "answered",
      reason: params.rejected ? "operator_rejected" : "operator",
      answers,
      ...(reject_reason !== undefined && { reject_reason }),
      ...(user !== undefined && { user }),
    });
  }
}

/** A scheduler whose timers run only when the test says so (the retry of refused writes). */
export function manualScheduler() {
  const timers: Array<{ run: () => void; cancelled: boolean }> = [];
  return {
    schedule: (run: () => void) => {
      const t = { run, cancelled: false };
      timers.push(t);
      return {
        cancel: () => {
          t.cancelled = true;
        },
      };
    },
    fire(): void {
      for (const t of timers.splice(0)) if (!t.cancelled) t.run();
    },
  };
}

/** Runs `fn` and returns the first words of every statement it executed on `handle`'s connection, in order. */
export async function captureStatements(handle: DatabaseHandle, fn: (executed: readonly string[]) => Promise<void> | void): Promise<string[]> {
  type Methods = Record<"run" | "get" | "all" | "iterate", (...args: unknown[]) => unknown>;
  const proto = Object.getPrototypeOf(handle.sqlite.prepare("SELECT 1")) as Methods & { source: string };
  const saved = { run: proto.run, get: proto.get, all: proto.all, iterate: proto.iterate };
  const executed: string[] = [];
  const words = (sql: string) => sql.split(/\s+/).slice(0, 3).join(" ");
  for (const name of ["run", "all", "iterate"] as const) {
    const original = saved[name];
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      executed.push(words(this.source));
      return original.apply(this, args);
    };
  }
  // The driver's get() of a write with RETURNING runs all() (db/client.ts): count it once.
  proto.get = function (this: { source: string; reader: boolean; readonly: boolean }, ...args: unknown[]) {
    if (!(this.reader && !this.readonly)) executed.push(words(this.source));
    return saved.get.apply(this, args);
  };
  try {
    await fn(executed);
  } finally {
    Object.assign(proto, saved);
  }
  return executed;
}

export async function httpError(p: Promise<unknown>): Promise<HttpError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error("expected an HttpError");
}

/** The board's clarification store over a fresh SQLite file. Call `close` when done. */
export function clarificationBoard() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-"));
  const handle = openDatabase(path.join(dir, "kandev.db"));
  const recorder = new Recorder();
  const retries = manualScheduler();
  const store = new LiveStore(handle.db, recorder, { schedule: retries.schedule });
  const flag = { on: true };
  const targets = new Map<string, ScriptedTarget>();
  const options = {
    store,
    notifications: new NotificationService(handle.db, recorder, silentLogger),
    logger: silentLogger,
    features: {
      get acpElicitation() {
        return flag.on;
      },
    },
    kandevWaitMs: 60_000,
    liveTarget: (sessionId: string) => targets.get(sessionId),
  };
  const service = new ClarificationService(options);
  const board = {
    dir,
    handle,
    recorder,
    store,
    retries,
    flag,
    targets,
    service,
    options,
    /** A task with a RUNNING session mid-turn, whose agentctl is the returned scripted target. */
    liveSession(): { ctx: ClarificationContext; target: ScriptedTarget } {
      const db = handle.db;
      const task = tasksRepo.insertTask(db, { title: "Ship the button", agentProfileId: "mock" });
      const session = sessionsRepo.insertSession(db, { taskId: task.id, agentProfileId: "mock" });
      const turn = turnsRepo.insertTurn(db, { sessionId: session.id });
      store.updateSession(session.id, { state: "RUNNING", currentTurnId: turn.id });
      const ctx = { sessionId: session.id, taskId: task.id, turnId: turn.id, executionId: `exec-${session.id}` };
      const target = new ScriptedTarget(ctx.executionId, ctx, () => service);
      targets.set(session.id, target);
      return { ctx, target };
    },
    requested: (pendingId: string) => ({
      pending_id: pendingId,
      session_id: "acp",
      tool_call_id: "toolu_1",
      message: "Pick",
      questions: QUESTIONS,
      deadline: "2030-01-01T00:00:00.000Z",
    }),
    /** The clarification message of `pendingId` as REST reads it (joined with its record). */
    messageOf(pendingId: string): Message {
      const sessionId = service.get(pendingId)!.session_id;
      const rows = messagesRepo.listMessages(handle.db, sessionId);
      const m = toMessages(rows, clarificationsRepo.listClarifications(handle.db, { sessionId })).find((x) => x.metadata.pending_id === pendingId);
      assert.ok(m !== undefined, `a message for ${pendingId}`);
      return m;
    },
    task: (ctx: ClarificationContext) => tasksRepo.getTask(handle.db, ctx.taskId)!,
    close(): void {
      service.shutdown();
      store.close();
      handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return board;
}
