// Shared by the 10,000-task scripts: a board on a database of its own, seeded straight into SQLite.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";

export const root = new URL("../../../", import.meta.url).pathname;

/** Starts the built board (node apps/backend/dist/main.js) on `dbPath`; resolves with its URL once it listens. */
export function startBoard(dbPath, { serveWeb = false } = {}) {
  const child = spawn(process.execPath, [path.join(root, "apps/backend/dist/main.js")], {
    cwd: root,
    env: { PATH: process.env.PATH, KANDEV_PORT: "0", KANDEV_SERVE_WEB: String(serveWeb), KANDEV_DB_PATH: dbPath, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve) =>
    createInterface({ input: child.stdout }).on("line", (l) => {
      const m = /^Kandev board: (\S+)$/.exec(l);
      if (m) resolve({ child, url: m[1] });
    }),
  );
}

export async function stopBoard(b) {
  b.child.kill("SIGTERM");
  await new Promise((r) => b.child.once("exit", r));
}

/** Creates the database (the board migrates it on start), then writes `count` finished tasks into it, a second apart. */
export async function seedTasks(dbPath, count) {
  await stopBoard(await startBoard(dbPath));
  const db = new Database(dbPath);
  const insertTask = db.prepare(
    "insert into tasks (id, title, state, pending_action, agent_profile_id, created_at, updated_at) values (?, ?, 'REVIEW', null, 'mock', ?, ?)",
  );
  const insertSession = db.prepare(
    "insert into sessions (id, task_id, agent_profile_id, state, created_at, updated_at) values (?, ?, 'mock', 'COMPLETED', ?, ?)",
  );
  db.transaction(() => {
    const t0 = Date.parse("2026-01-01T00:00:00Z");
    for (let i = 0; i < count; i++) {
      const at = new Date(t0 + i * 1000).toISOString();
      const id = randomUUID();
      insertTask.run(id, `task ${i}`, at, at);
      insertSession.run(randomUUID(), id, at, at);
    }
  })();
  db.close();
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
