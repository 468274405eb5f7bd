// The WAL checkpointer over a real SQLite file and a real worker thread.
import { afterEach, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Worker } from "node:worker_threads";
import { createLogger, type Logger } from "../logger.js";
import { SQLITE_AUTOCHECKPOINT_PAGES, startCheckpointer } from "./checkpointer.js";
import { openDatabase, type DatabaseHandle } from "./client.js";

/** A logger that keeps what it wrote. */
function recordingLogger(): { logger: Logger; lines: Array<{ level: string; msg: string }> } {
  const lines: Array<{ level: string; msg: string }> = [];
  return { lines, logger: createLogger("debug", (l) => void lines.push(JSON.parse(l) as { level: string; msg: string })) };
}

const autocheckpoint = (h: DatabaseHandle) => h.sqlite.pragma("wal_autocheckpoint", { simple: true });
const size = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** Enough rows to fill the WAL past SQLite's automatic checkpoint (1,000 pages of 4 KiB). */
function writeRows(h: DatabaseHandle, rows: number): void {
  h.sqlite.exec("create table if not exists filler (id integer primary key, body text)");
  const insert = h.sqlite.prepare("insert into filler (body) values (?)");
  for (let i = 0; i < rows; i++) insert.run("x".repeat(3000));
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("WAL checkpoints in a worker thread (real SQLite file)", () => {
  let dir: string;
  let file: string;
  let handle: DatabaseHandle;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-checkpoint-"));
    file = path.join(dir, "board.db");
    handle = openDatabase(file);
  });
  afterEach(() => {
    handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("the board's connection stops checkpointing; the worker moves the whole WAL into the database file", async () => {
    assert.equal(autocheckpoint(handle), SQLITE_AUTOCHECKPOINT_PAGES, "SQLite's default before");
    const cp = await startCheckpointer(handle.sqlite, file, { logger: createLogger("silent"), intervalMs: 3_600_000 });
    try {
      assert.equal(cp.active, true);
      assert.equal(autocheckpoint(handle), 0);
      const before = size(file);
      writeRows(handle, 2000);
      assert.equal(size(file), before, "no commit of the board's checkpointed into the database file");
      const result = await cp.now();
      assert.equal(result.busy, false);
      assert.ok(result.walFrames > SQLITE_AUTOCHECKPOINT_PAGES, `frames in the WAL: ${result.walFrames}`);
      assert.equal(result.checkpointedFrames, result.walFrames, "every frame is in the database file");
      assert.ok(size(file) > before + 2000 * 3000, "the rows are in the database file");
    } finally {
      await cp.stop();
    }
    assert.equal(cp.active, false);
    assert.equal(autocheckpoint(handle), SQLITE_AUTOCHECKPOINT_PAGES, "stopped: the board's connection checkpoints itself again");
  });

  test("checkpoints run every interval on their own, while the board goes on writing", async () => {
    const cp = await startCheckpointer(handle.sqlite, file, { logger: createLogger("silent"), intervalMs: 50 });
    try {
      const before = size(file);
      writeRows(handle, 500);
      await until(() => size(file) > before + 500 * 3000, "the interval's checkpoint reached the database file");
      writeRows(handle, 10);
      assert.equal(handle.sqlite.prepare("select count(*) from filler").pluck().get(), 510);
    } finally {
      await cp.stop();
    }
  });

  test("a board that never stops writing still gets its WAL started over, and its file cut back", async () => {
    // The board under load: writes back to back, never a pause for a checkpoint to catch up with.
    // PASSIVE alone copies every frame yet never lets the WAL restart, so it grew for as long as
    // the load lasted (to 5.6 GB in a 3-minute benchmark warm-up).
    const restartFrames = 256;
    // The board's limit (256 MiB, as far as its restart point) scaled down with it, as a test can write.
    const limit = 4 * 1024 * 1024;
    handle.sqlite.pragma(`journal_size_limit = ${limit}`);
    const cp = await startCheckpointer(handle.sqlite, file, { logger: createLogger("silent"), intervalMs: 3_600_000, restartFrames });
    const frames: number[] = [];
    let restartsReported = 0;
    let rows = 0;
    try {
      handle.sqlite.exec("create table if not exists filler (id integer primary key, body text)");
      const insert = handle.sqlite.prepare("insert into filler (body) values (?)");
      let checkpoint: Promise<void> | null = null;
      // Eight times the file size limit in ~3 KB rows (a page each), so cuts back are due.
      const target = (8 * limit) / 3000;
      const end = Date.now() + 20_000;
      while (rows < target && Date.now() < end) {
        // ~5 ms of writes, then one turn of the event loop, as the board's events come.
        const sliceEnd = Date.now() + 5;
        while (Date.now() < sliceEnd) insert.run("x".repeat(3000)), rows++;
        checkpoint ??= cp.now().then((r) => {
          frames.push(r.walFrames);
          if (r.restarted) restartsReported++;
          checkpoint = null;
        });
        await new Promise((r) => setImmediate(r));
      }
      await checkpoint;
      // One more checkpoint, of a WAL surely past the restart point, and a write: that write
      // starts the WAL over and cuts the file back.
      writeRows(handle, 2 * restartFrames), (rows += 2 * restartFrames);
      const last = await cp.now();
      assert.equal(last.restarted, true, JSON.stringify(last));
      insert.run("x"), rows++;
      assert.ok(size(`${file}-wal`) <= limit, `WAL file ${size(`${file}-wal`)} bytes`);
    } finally {
      await cp.stop();
    }
    const restarts = frames.filter((n, i) => i > 0 && n < frames[i - 1]!).length;
    assert.ok(rows > (4 * limit) / 3000, `written past the file size limit: ${rows} rows`);
    assert.ok(restarts >= 3, `the WAL started over ${restarts} times; frames at each checkpoint: ${frames.join(" ")}`);
    assert.ok(restartsReported >= 3, `${restartsReported} restarts reported`);
    assert.equal(handle.sqlite.prepare("select count(*) from filler").pluck().get(), rows);
  });

  test("a catch-up checkpoint the board's connection cannot run is logged once; writes go on and a later one restarts the WAL", async () => {
    const { logger, lines } = recordingLogger();
    let worker: Worker | null = null;
    const cp = await startCheckpointer(handle.sqlite, file, { logger, intervalMs: 3_600_000, restartFrames: 1, onWorker: (w) => (worker = w) });
    try {
      writeRows(handle, 50);
      // The worker's report of a long WAL arriving while the board's connection is inside a write
      // transaction: SQLite refuses a checkpoint there (SQLITE_LOCKED), twice.
      const due = { type: "checkpointed", id: null, busy: false, walFrames: 70_000, checkpointedFrames: 70_000, restartDue: true };
      handle.sqlite.transaction(() => {
        handle.sqlite.prepare("insert into filler (body) values ('in the transaction')").run();
        worker!.emit("message", due);
        worker!.emit("message", due);
      })();
      const warned = lines.filter((l) => l.level === "warn" && /catch-up checkpoint failed/.test(l.msg));
      assert.equal(warned.length, 1, JSON.stringify(lines));
      assert.equal(handle.sqlite.prepare("select count(*) from filler").pluck().get(), 51, "the transaction committed");
      const framesBefore = (await cp.now()).walFrames;
      assert.ok(framesBefore > 1);
      writeRows(handle, 1);
      const after = await cp.now();
      assert.equal(after.restarted, true, JSON.stringify(after));
      assert.ok(after.walFrames < framesBefore, `the WAL started over: ${after.walFrames} frames, ${framesBefore} before`);
    } finally {
      await cp.stop();
    }
  });

  test("a worker that dies hands checkpoints back to the board's connection, and says so", async () => {
    const { logger, lines } = recordingLogger();
    let worker: Worker | null = null;
    const cp = await startCheckpointer(handle.sqlite, file, { logger, intervalMs: 3_600_000, onWorker: (w) => (worker = w) });
    assert.equal(autocheckpoint(handle), 0);
    const asked = cp.now();
    await worker!.terminate();
    await assert.rejects(asked, /checkpoint worker stopped/);
    assert.equal(cp.active, false);
    assert.equal(autocheckpoint(handle), SQLITE_AUTOCHECKPOINT_PAGES);
    assert.ok(lines.some((l) => l.level === "warn" && /checkpoint worker stopped/.test(l.msg)), JSON.stringify(lines));
    await assert.rejects(cp.now(), /not running/);
    await cp.stop();
  });

  test("a failing checkpoint is logged once while it keeps failing, and its recovery once; a caller waiting on it gets the error", async () => {
    const { logger, lines } = recordingLogger();
    let worker: Worker | null = null;
    const cp = await startCheckpointer(handle.sqlite, file, { logger, intervalMs: 3_600_000, onWorker: (w) => (worker = w) });
    try {
      // What the worker posts when SQLite refuses a checkpoint (disk full, I/O error): the
      // interval's own (id null) and a caller's.
      const failed = (id: number | null) => worker!.emit("message", { type: "failed", id, message: "database or disk is full" });
      failed(null);
      failed(null);
      const asked = cp.now();
      failed(1);
      await assert.rejects(asked, /disk is full/);
      const warned = lines.filter((l) => l.level === "warn" && /WAL checkpoint failed/.test(l.msg));
      assert.equal(warned.length, 1, JSON.stringify(lines));
      const healed = await cp.now();
      assert.equal(healed.busy, false, "the real worker still checkpoints");
      assert.equal(lines.filter((l) => l.level === "info" && /work again/.test(l.msg)).length, 1, JSON.stringify(lines));
      assert.equal(cp.active, true, "a failed checkpoint does not stop the worker");
    } finally {
      await cp.stop();
    }
  });

  test("a worker that cannot open the database fails the start; the board's connection keeps checkpointing", async () => {
    await assert.rejects(startCheckpointer(handle.sqlite, path.join(dir, "missing.db"), { logger: createLogger("silent") }), /unable to open|does not exist|directory/i);
    assert.equal(autocheckpoint(handle), SQLITE_AUTOCHECKPOINT_PAGES);
  });

  test("stopped, then closed: the worker's connection is gone and closing the board's removes the WAL", async () => {
    const cp = await startCheckpointer(handle.sqlite, file, { logger: createLogger("silent"), intervalMs: 3_600_000 });
    writeRows(handle, 50);
    await cp.stop();
    await cp.stop(); // twice is fine
    assert.ok(fs.existsSync(`${file}-wal`));
    handle.close();
    assert.equal(fs.existsSync(`${file}-wal`), false, "the last connection to close checkpoints and deletes the WAL");
  });
});
