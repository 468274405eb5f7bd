/**
 * WAL checkpoints off the board's event loop.
 *
 * SQLite's automatic checkpoint runs inside the commit that fills the WAL past 1,000 pages: that
 * commit copies the pages into the database file and fsyncs it, about 6 ms on this machine's disk
 * against 0.02 ms for an ordinary commit (measured: 1 commit in 500 took 5.9 ms or more). The
 * board's driver is synchronous, so every session's events and every request waited out each one:
 * the p99 of a question's trip (docs/BENCHMARKS.md). Here the board's own connection never
 * checkpoints (`wal_autocheckpoint = 0`); a worker thread with a second connection does, every
 * `intervalMs`, with PASSIVE checkpoints, which wait for no reader or writer and block none.
 * (SQLite's locks only: while the WAL's pages are written out, by the worker's fsync or the
 * kernel's own writeback, the board's writes and reads of them can still wait on the disk; on a
 * slow disk that is the board's longest pause. See "The board-wide pauses are the disk" in
 * docs/benchmarks/analysis-2026-12-01.md.)
 *
 * A PASSIVE checkpoint never makes the WAL start over: SQLite restarts it at the first write that
 * begins with every frame already in the database file, and with a writer that never pauses (the
 * board under load) frames are always added while the worker copies. Measured with `npm run bench`:
 * the WAL reached 1.4 million frames (5.6 GB) during a 3-minute warm-up, each checkpoint took
 * 50-130 ms, and only ended when the load did. So once a PASSIVE checkpoint has copied a WAL of
 * `restartFrames` or more, the worker catches up with a second one (what the board wrote during
 * the first) and hands over: the board's own connection, the only writer, runs a last PASSIVE
 * checkpoint between two of its writes (the few frames added meanwhile, and the syncs), so its
 * next write starts the WAL over, and `journal_size_limit` (db/client.ts) gives the file's space
 * back. A RESTART checkpoint in the worker would do the same by holding the board's writes off,
 * and a write that meets its lock sleeps in SQLite's busy handler (1, 2, 5, 10 ms...) or, with a
 * slow disk, fails after busy_timeout; this one holds the event loop only while it copies and syncs.
 *
 * Should the worker fail to start or stop unexpectedly, the board's connection goes back to
 * automatic checkpoints, so the WAL never grows without bound; that is logged.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import type { Logger } from "../logger.js";
import { BUSY_TIMEOUT_MS } from "./client.js";

/** SQLite's default `wal_autocheckpoint`, restored when the worker is gone. */
export const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
export const DEFAULT_CHECKPOINT_INTERVAL_MS = 1000;
/**
 * A WAL this long (256 MiB of 4 KiB pages, `journal_size_limit`) is started over once it is in the
 * database file. The board's catch-up checkpoint must sync what was written since the worker's
 * (measured under `npm run bench` saturation: 5-54 ms with the event loop held), so it comes
 * rarely: every half minute at 100 questions a second, every 7 s at 440 round trips a second.
 */
export const DEFAULT_RESTART_FRAMES = 65_536;

export interface CheckpointWorkerData {
  file: string;
  /** better-sqlite3's entry point, resolved by the board (the worker may run from anywhere). */
  driver: string;
  intervalMs: number;
  busyTimeoutMs: number;
  restartFrames: number;
}
export type ToCheckpointWorker = { type: "now"; id: number } | { type: "stop" };
export type FromCheckpointWorker =
  | { type: "ready" }
  /** The worker could not open the database (or load the driver); it stops. */
  | { type: "unavailable"; message: string }
  /** `id` is the `now` request's, null for the interval's own checkpoints. */
  | { type: "checkpointed"; id: number | null; busy: boolean; walFrames: number; checkpointedFrames: number; restartDue: boolean }
  | { type: "failed"; id: number | null; message: string };

/** One checkpoint: frames in the WAL, how many are in the database file now, and whether a lock held some back. */
export interface CheckpointResult {
  busy: boolean;
  walFrames: number;
  checkpointedFrames: number;
  /** The WAL was long enough to start over: the board's connection caught up, its next write starts it over. */
  restarted: boolean;
}

export interface Checkpointer {
  /** Runs a checkpoint now; resolves with its result, rejects with its error. */
  now(): Promise<CheckpointResult>;
  /** True while the worker runs and the board's connection leaves checkpoints to it. */
  readonly active: boolean;
  /** Stops the worker (its connection closed); the board's connection checkpoints on its own again. */
  stop(): Promise<void>;
}

/**
 * The worker: its own connection to the board's database, which moves WAL frames into the database
 * file (`wal_checkpoint(PASSIVE)`) every `intervalMs` and at once when asked. Plain JavaScript run
 * with `eval`, so the same code runs from the build and under tsx in the tests (Node 20 workers do
 * not inherit tsx's loader); the messages are the types above, covered by checkpointer.test.ts.
 */
const WORKER_SOURCE = `(() => {
const { parentPort, workerData } = require("node:worker_threads");
let db;
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.file, { fileMustExist: true });
  db.pragma("busy_timeout = " + workerData.busyTimeoutMs);
} catch (err) {
  parentPort.postMessage({ type: "unavailable", message: err instanceof Error ? err.message : String(err) });
  parentPort.close();
  return;
}
const checkpoint = (id) => {
  try {
    let [row] = db.pragma("wal_checkpoint(PASSIVE)");
    const restartDue = row.log >= workerData.restartFrames;
    if (restartDue) {
      // Catch up on what the board wrote meanwhile, so its own last checkpoint is short.
      const [again] = db.pragma("wal_checkpoint(PASSIVE)");
      if (again.busy === 0) row = again;
    }
    parentPort.postMessage({ type: "checkpointed", id, busy: row.busy === 1, walFrames: row.log, checkpointedFrames: row.checkpointed, restartDue });
  } catch (err) {
    parentPort.postMessage({ type: "failed", id, message: err instanceof Error ? err.message : String(err) });
  }
};
const timer = setInterval(() => checkpoint(null), workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message.type === "now") return checkpoint(message.id);
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage({ type: "ready" });
})();
`;

/**
 * Starts the worker for the database `sqlite` has open at `file`; resolves once the worker's
 * connection is open and the board's connection has stopped checkpointing.
 */
export async function startCheckpointer(
  sqlite: Database.Database,
  file: string,
  options: { logger: Logger; intervalMs?: number; restartFrames?: number; /** Test seam: the worker, once created. */ onWorker?: (worker: Worker) => void },
): Promise<Checkpointer> {
  const { logger } = options;
  const data: CheckpointWorkerData = {
    file,
    driver: createRequire(import.meta.url).resolve("better-sqlite3"),
    intervalMs: options.intervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS,
    busyTimeoutMs: BUSY_TIMEOUT_MS,
    restartFrames: options.restartFrames ?? DEFAULT_RESTART_FRAMES,
  };
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: data });
  worker.unref();
  options.onWorker?.(worker);
  let active = false;
  let stopping = false;
  let failing: string | null = null;
  const waiting = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const answer = (id: number | null) => {
    if (id === null) return undefined;
    const w = waiting.get(id);
    waiting.delete(id);
    return w;
  };
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));

  const handBack = (why: string) => {
    if (active && sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    active = false;
    for (const w of waiting.values()) w.reject(new Error(why));
    waiting.clear();
  };

  /**
   * The worker copied a long WAL: one short checkpoint on the board's connection, between two of
   * its writes, copies what was added since, so the next write starts the WAL over. PASSIVE: it
   * waits for nothing (the worker is idle until its next interval). True when everything is copied.
   */
  let catchUpFailing: string | null = null;
  const catchUp = (): boolean => {
    if (!active || !sqlite.open) return false;
    try {
      const [row] = sqlite.pragma("wal_checkpoint(PASSIVE)") as Array<{ busy: number; log: number; checkpointed: number }>;
      catchUpFailing = null;
      return row !== undefined && row.busy === 0 && row.checkpointed === row.log;
    } catch (err) {
      // Logged when it starts failing, not at every due restart while it does; nothing is lost,
      // the WAL only stays long until a later one works.
      const message = err instanceof Error ? err.message : String(err);
      if (catchUpFailing !== message) logger.warn("the board's catch-up checkpoint failed; the WAL starts over after a later one", { error: message });
      catchUpFailing = message;
      return false;
    }
  };

  await new Promise<void>((resolve, reject) => {
    worker.on("message", (message: FromCheckpointWorker) => {
      switch (message.type) {
        case "unavailable":
          return reject(new Error(`the checkpoint worker cannot open the database: ${message.message}`));
        case "ready":
          sqlite.pragma("wal_autocheckpoint = 0");
          active = true;
          return resolve();
        case "checkpointed": {
          if (failing !== null) logger.info("WAL checkpoints work again", { previous_error: failing });
          failing = null;
          const restarted = message.restartDue && catchUp();
          answer(message.id)?.resolve({ busy: message.busy, walFrames: message.walFrames, checkpointedFrames: message.checkpointedFrames, restarted });
          return;
        }
        case "failed":
          // Logged when checkpoints start failing, not once a second while they do.
          if (failing !== message.message) logger.warn("WAL checkpoint failed; retried every interval", { error: message.message });
          failing = message.message;
          answer(message.id)?.reject(new Error(message.message));
          return;
      }
    });
    worker.once("error", (thrown: unknown) => {
      // What the worker threw arrives cloned: a SqliteError as a plain object with its message.
      const message = thrown instanceof Error ? thrown.message : String((thrown as { message?: unknown } | null)?.message ?? thrown);
      logger.warn("the WAL checkpoint worker failed; the board's connection checkpoints itself again", { error: message });
      handBack(`the checkpoint worker failed: ${message}`);
      reject(new Error(`the checkpoint worker failed: ${message}`));
    });
    worker.once("exit", (code) => {
      if (!stopping && active) logger.warn("the WAL checkpoint worker stopped; the board's connection checkpoints itself again", { code });
      handBack("the checkpoint worker stopped");
      reject(new Error(`the checkpoint worker exited (${code}) before it was ready`));
    });
  });

  return {
    get active() {
      return active;
    },
    now() {
      if (!active) return Promise.reject(new Error("the checkpoint worker is not running"));
      return new Promise<CheckpointResult>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        worker.postMessage({ type: "now", id } satisfies ToCheckpointWorker);
      });
    },
    async stop() {
      if (stopping) return exited;
      stopping = true;
      handBack("the checkpointer was stopped");
      worker.postMessage({ type: "stop" } satisfies ToCheckpointWorker);
      const timer = setTimeout(() => void worker.terminate(), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}
