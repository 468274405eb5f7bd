import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { MessageAppended, SessionUpdate } from "@kandev/protocol";
import { openDatabase, type DatabaseHandle } from "../db/client.js";
import { APPEND_MAX_CHARS, APPEND_MAX_DELAY_MS, APPEND_MIN_DELAY_MS } from "../domain/stream-writes.js";
import * as messagesRepo from "../repos/messages.js";
import * as sessionsRepo from "../repos/sessions.js";
import * as tasksRepo from "../repos/tasks.js";
import * as turnsRepo from "../repos/turns.js";
import type { Publisher } from "../ws/hub.js";
import { LiveStore } from "./store.js";
import { Transcript, type TranscriptClock } from "./transcript.js";

/** A clock the test moves: timers run when `advance` passes their time. */
function fakeClock() {
  let now = 0;
  let timers: Array<{ at: number; run: () => void; cancelled: boolean }> = [];
  const clock: TranscriptClock = {
    now: () => now,
    schedule: (run, ms) => {
      const t = { at: now + ms, run, cancelled: false };
      timers.push(t);
      return { cancel: () => (t.cancelled = true) };
    },
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const next = timers.filter((t) => !t.cancelled && t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (next === undefined) break;
      timers = timers.filter((t) => t !== next);
      now = next.at;
      next.run();
    }
    now = until;
  };
  return { clock, advance, armed: () => timers.filter((t) => !t.cancelled).length };
}

/** The store's retry timer for refused writes, fired by hand. */
function manualRetries() {
  let pending: Array<() => void> = [];
  return {
    schedule: (run: () => void) => {
      pending.push(run);
      return { cancel: () => (pending = pending.filter((r) => r !== run)) };
    },
    fire: () => {
      for (const run of pending.splice(0)) run();
    },
  };
}

const handles: DatabaseHandle[] = [];
afterEach(() => {
  for (const h of handles.splice(0)) h.sqlite.close();
});

/** A session on a fresh SQLite file, its transcript on a fake clock, and what was appended where. */
function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-transcript-"));
  const handle = openDatabase(path.join(dir, "kandev.db"));
  handles.push(handle);
  const db = handle.db;
  const task = tasksRepo.insertTask(db, { title: "t", agentProfileId: "mock" });
  const session = sessionsRepo.insertSession(db, { taskId: task.id, agentProfileId: "mock" });
  const turn = turnsRepo.insertTurn(db, { sessionId: session.id });
  const deltas: MessageAppended[] = [];
  const publisher: Publisher = {
    taskUpdated: () => undefined,
    sessionUpdated: () => undefined,
    messageAdded: () => undefined,
    messageUpdated: () => undefined,
    messageAppended: (a) => deltas.push(a),
    notify: () => undefined,
  };
  const retries = manualRetries();
  const store = new LiveStore(db, publisher, { schedule: retries.schedule });
  const writes: string[] = [];
  const storeAppend = store.storeAppend.bind(store);
  store.storeAppend = (id, text) => {
    writes.push(text);
    storeAppend(id, text);
  };
  const time = fakeClock();
  const transcript = new Transcript(store, { sessionId: session.id, taskId: task.id }, turn.id, time.clock);
  const chunk = (text: string) => transcript.apply(turn.id, { kind: "agent_message_chunk", text } satisfies SessionUpdate);
  const stored = () => messagesRepo.listMessages(db, session.id);
  return { store, retries, transcript, chunk, turnId: turn.id, deltas, writes, stored, ...time };
}

/** The text a browser rebuilds from the deltas, checking each lands where its offset says. */
function rebuilt(first: string, deltas: MessageAppended[]): string {
  let text = first;
  for (const d of deltas) {
    assert.equal(d.offset, text.length, "each delta starts where the text so far ends");
    text += d.text;
  }
  return text;
}

describe("streamed text: deltas at once, the database in batches", () => {
  test("2,000 chunks streamed at once are announced one by one and written in a handful of batches", () => {
    const s = setup();
    const chunks = Array.from({ length: 2_000 }, (_, i) => `${i}`.padEnd(10, "."));
    for (const c of chunks) s.chunk(c);
    assert.equal(s.deltas.length, 1_999, "every chunk after the first is a delta");
    assert.equal(rebuilt(chunks[0]!, s.deltas), chunks.join(""));
    assert.ok(s.writes.length <= Math.ceil(20_000 / APPEND_MAX_CHARS), `${s.writes.length} writes for 2,000 chunks`);
    s.transcript.interrupt();
    assert.equal(s.stored()[0]!.content, chunks.join(""), "the turn's end writes what waited");
  });

  test("a batch waits for the shortest delay, then is written by the timer", () => {
    const s = setup();
    s.chunk("hello");
    s.chunk(" world");
    assert.deepEqual(s.writes, []);
    s.advance(APPEND_MIN_DELAY_MS - 1);
    assert.deepEqual(s.writes, []);
    s.advance(1);
    assert.deepEqual(s.writes, [" world"]);
    assert.equal(s.stored()[0]!.content, "hello world");
    assert.equal(s.armed(), 0, "no timer left once nothing waits");
  });

  test("a small batch beside a long message waits up to the longest delay, never longer", () => {
    const s = setup();
    s.chunk("x".repeat(100_000));
    s.chunk("tail");
    s.advance(APPEND_MAX_DELAY_MS - 1);
    assert.deepEqual(s.writes, []);
    s.advance(APPEND_MIN_DELAY_MS);
    assert.deepEqual(s.writes, ["tail"]);
  });

  test("a tool call, another turn or a read writes the waiting text first, in the transcript's order", () => {
    const s = setup();
    s.chunk("before ");
    s.chunk("the tool");
    s.transcript.apply(s.turnId, { kind: "tool_call", tool_call_id: "c1", title: "run ls" });
    const [text, tool] = s.stored();
    assert.equal(text!.content, "before the tool");
    assert.equal(tool!.type, "tool_call");
    s.chunk("after");
    s.chunk(" it");
    s.transcript.flush();
    assert.equal(s.stored()[2]!.content, "after it");
    s.chunk("!");
    s.transcript.beginTurn("t2");
    assert.equal(s.stored()[2]!.content, "after it!");
  });

  test("an event whose transaction the database refused is retried from where the transcript stood", () => {
    const s = setup();
    s.chunk("a");
    let refuse = true;
    const event = () => {
      s.chunk("b".repeat(APPEND_MAX_CHARS));
      if (refuse) throw Object.assign(new Error("database is locked"), { name: "SqliteError", code: "SQLITE_BUSY" });
    };
    const keep = () => {
      const saved = s.transcript.snapshot();
      return () => s.transcript.restore(saved);
    };
    assert.equal(s.store.write("chunk", event, keep), "held");
    assert.equal(s.deltas.length, 0, "nothing of a rolled-back event is announced");
    refuse = false;
    s.retries.fire();
    s.transcript.interrupt();
    assert.equal(s.stored()[0]!.content, `a${"b".repeat(APPEND_MAX_CHARS)}`);
    assert.deepEqual(
      s.deltas.map((d) => d.offset),
      [1],
      "the retried chunk is announced where it lands",
    );
  });
});
