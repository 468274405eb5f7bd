// The SQLite file under stress (docs/RELIABILITY.md §2): locked by another connection, and its disk
// full. Each must be a clear HTTP error (code + message, logged), leave the file intact
// (integrity_check ok), lose no clarification outcome, and heal without a restart.
import { after, describe, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Clarification, Message, Session, Task } from "@kandev/protocol";
import { respond, startLoggedTask, waitForClarifications, waitForClarificationStatus, wireLog } from "../clarification-helpers.js";
import { api, eventually, tempDir } from "../helpers.js";
import { startBoard, wireActionFor, type Server } from "./helpers.js";

const RED = { answers: [{ question_id: "question_0", selected_options: ["Red"] }] };
type ErrorBody = { error: { code: string; message: string; details?: { sqlite_code: string } } };

function integrity(dbPath: string): string {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.pragma("integrity_check") as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join(",");
  } finally {
    db.close();
  }
}

/** A board with elicitation on and one task whose agent waits on a question ("Red" or not). */
async function boardWithQuestion(name: string) {
  const board = await startBoard();
  const base = board.server.url;
  const { sessionId, logFile } = await startLoggedTask(base, board.server.dir, name, "/e2e:elicit-ask");
  const [m] = await waitForClarifications(base, sessionId);
  return { board, base, sessionId, logFile, pendingId: m!.metadata.pending_id as string };
}

/**
 * Another connection takes the write lock (as another program would) and holds it while `during`
 * runs; the lock is always let go, even when `during` throws.
 */
async function whileLocked(dbPath: string, during: () => Promise<void>): Promise<void> {
  const other = new Database(dbPath);
  other.pragma("busy_timeout = 0");
  other.exec("BEGIN EXCLUSIVE");
  try {
    await during();
  } finally {
    other.exec("ROLLBACK");
    other.close();
  }
}

describe("the database locked by another connection", () => {
  let server: Server | null = null;
  after(async () => {
    await server?.close();
  });

  test("writes fail fast with 503 DATABASE_BUSY (logged), reads go on, an answer given meanwhile is delivered and recorded once the lock is gone", async (t: TestContext) => {
    const { board, base, logFile, pendingId } = await boardWithQuestion("locked");
    server = board.server;
    await whileLocked(board.server.dbPath, async () => {
      const startedAt = Date.now();
      const refused = await api<ErrorBody>(base, "POST", "/api/v1/tasks", { title: "t", prompt: "/e2e:echo locked" });
      const waited = Date.now() - startedAt;
      t.diagnostic(`a write waited ${waited} ms for the lock`);
      assert.equal(refused.status, 503);
      assert.equal(refused.body.error.code, "DATABASE_BUSY");
      assert.equal(refused.body.error.details?.sqlite_code, "SQLITE_BUSY");
      assert.match(refused.body.error.message, /locked by another connection/);
      assert.ok(waited < 4_000, `failed after ${waited} ms, not after a long freeze`);
      assert.equal((await api(base, "GET", "/api/v1/health")).status, 200, "reads still work");
      assert.equal((await api<Clarification>(base, "GET", `/api/v1/clarifications/${pendingId}`)).body.status, "pending");

      // The answer reaches the agent (agentctl decides, nothing is written first) and is reported as such.
      const ok = await respond(base, pendingId, RED);
      assert.deepEqual([ok.status, ok.body.status], [200, "answered"]);
      await eventually(() => (wireActionFor(wireLog(logFile), "toolu_fake_1") === "accept" ? true : undefined), "the agent received the answer");
    });
    // Nothing answered is lost: agentctl's settle event, held during the lock, is written once it is gone.
    const settled = await eventually(
      async () => {
        const c = (await api<Clarification>(base, "GET", `/api/v1/clarifications/${pendingId}`)).body;
        return c.status === "answered" ? c : undefined;
      },
      "the deferred outcome written",
      5_000,
    );
    assert.deepEqual(settled.resolution?.answers, RED.answers);
    const log = board.log.text();
    assert.match(log, /"msg":"request failed".*database is locked/);
    assert.match(log, /the database refused a write; holding it and every later one until it takes them/);
    assert.match(log, /held writes were written/);
    assert.equal((await api(base, "POST", "/api/v1/tasks", { title: "t", prompt: "/e2e:echo unlocked" })).status, 201, "writes work again");
    await board.server.close();
    server = null;
    assert.equal(integrity(board.server.dbPath), "ok");
  });
});

describe("agent events while the database is locked", () => {
  let server: Server | null = null;
  after(async () => {
    await server?.close();
  });

  test("the agent's text and the end of its turn, arriving while the file is locked, are held in order and written once the lock is gone", async () => {
    const { board, base, sessionId, logFile, pendingId } = await boardWithQuestion("held");
    server = board.server;
    await whileLocked(board.server.dbPath, async () => {
      assert.equal((await respond(base, pendingId, RED)).status, 200);
      await eventually(() => (wireActionFor(wireLog(logFile), "toolu_fake_1") === "accept" ? true : undefined), "the agent received the answer");
      // The agent now says what it got and ends its turn: both reach the board during the lock.
      await eventually(
        () => (board.rec.events.some((e) => e.sessionId === sessionId && e.event.name === "turn.ended") ? true : undefined),
        "turn.ended reached the board",
      );
      assert.match(board.log.text(), /the database refused a write; holding it/);
      const during = await api<Session>(base, "GET", `/api/v1/sessions/${sessionId}`);
      assert.equal(during.body.state, "RUNNING", "nothing of the held events is visible yet");
    });

    const session = await eventually(
      async () => {
        const s = (await api<Session>(base, "GET", `/api/v1/sessions/${sessionId}`)).body;
        return s.state === "WAITING_FOR_INPUT" ? s : undefined;
      },
      "the held turn.ended written",
      15_000,
    );
    assert.equal(session.error ?? null, null);
    const messages = (await api<Message[]>(base, "GET", `/api/v1/sessions/${sessionId}/messages`)).body;
    const kinds = messages.map((x) => (x.type === "text" ? `${x.author_type}:${x.content.trim()}` : x.type));
    const question = kinds.indexOf("clarification_request");
    const reply = kinds.findIndex((k) => k.startsWith("agent:elicitation response:"));
    assert.ok(question >= 0 && reply > question, `the agent's reply follows the question: ${JSON.stringify(kinds)}`);
    assert.match(kinds[reply]!, /"action":"accept"/);
    assert.match(board.log.text(), /held writes were written/);
    assert.deepEqual((await waitForClarificationStatus(base, pendingId, "answered")).resolution?.answers, RED.answers);
    await eventually(async () => {
      const task = (await api<Task>(base, "GET", `/api/v1/tasks/${session.task_id}`)).body;
      return task.state === "REVIEW" ? task : undefined;
    }, "the task in REVIEW once both the turn's end and the answer are written");
  });
});

/** A small filesystem for the database: tmpfs when we may mount (root), else a per-file size limit. */
function smallDisk(dir: string): { kind: "tmpfs" | "rlimit"; grow: () => void; release: () => void } {
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", dir]).status === 0;
  if (mounted) {
    return {
      kind: "tmpfs",
      grow: () => assert.equal(spawnSync("mount", ["-o", "remount,size=64m", dir]).status, 0),
      release: () => void spawnSync("umount", ["-l", dir]),
    };
  }
  // Unprivileged: cap the size of any file this process writes (EFBIG instead of SIGXFSZ).
  const ignore = () => undefined;
  process.on("SIGXFSZ", ignore);
  const limit = (value: string) => assert.equal(spawnSync("prlimit", ["--pid", String(process.pid), `--fsize=${value}:`]).status, 0, "prlimit");
  limit(String(3 * 1024 * 1024));
  return {
    kind: "rlimit",
    grow: () => limit("unlimited"),
    release: () => {
      limit("unlimited");
      process.off("SIGXFSZ", ignore);
    },
  };
}

describe("the disk holding the database full", () => {
  test("a write that does not fit is a clear 5xx (507 DATABASE_FULL on a full filesystem), nothing half-written, it heals when space returns", async (t: TestContext) => {
    const dir = path.join(tempDir(), "disk");
    fs.mkdirSync(dir);
    const disk = smallDisk(dir);
    t.diagnostic(`small disk: ${disk.kind}`);
    let server: Server | null = null;
    try {
      const board = await startBoard({ dir });
      server = board.server;
      const base = server.url;
      const profiles = async () => (await api<unknown[]>(base, "GET", "/api/v1/agent-profiles")).body.length;
      const before = await profiles();
      let created = 0;
      let failure: { status: number; body: ErrorBody } | null = null;
      for (let i = 0; i < 12 && failure === null; i++) {
        const r = await api<ErrorBody>(base, "POST", "/api/v1/agent-profiles", {
          name: `big ${i}`,
          command: ["x"],
          env: { PAD: "x".repeat(900_000) },
        });
        if (r.status === 201) created += 1;
        else failure = r;
      }
      assert.ok(failure !== null, "the disk filled up");
      t.diagnostic(`full after ${created} profiles: ${failure.status} ${failure.body.error.code}`);
      if (disk.kind === "tmpfs") {
        assert.deepEqual([failure.status, failure.body.error.code, failure.body.error.details?.sqlite_code], [507, "DATABASE_FULL", "SQLITE_FULL"]);
        assert.match(failure.body.error.message, /disk holding the database is full/);
      } else {
        assert.deepEqual([failure.status, failure.body.error.code], [500, "DATABASE_ERROR"]);
      }
      assert.match(board.log.text(), /"msg":"request failed"/);
      assert.equal(await profiles(), before + created, "the refused write left nothing behind");
      assert.equal((await api(base, "GET", "/api/v1/health")).status, 200, "the board is still up");
      disk.grow();
      const healed = await api(base, "POST", "/api/v1/agent-profiles", { name: "after", command: ["x"] });
      assert.equal(healed.status, 201, "writes work again once there is space");
      await server.close();
      server = null;
      assert.equal(integrity(board.server.dbPath), "ok");
    } finally {
      await server?.close();
      disk.release();
    }
  });
});
