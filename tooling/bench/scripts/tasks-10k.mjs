#!/usr/bin/env node
// Measures GET /api/v1/tasks on a board of 10,000 tasks (issue 36 item 7): the first page the web
// app opens with (limit=100) against the whole list. Seeds the SQLite file directly, then starts
// the built board (node apps/backend/dist/main.js) on it. Usage: node tooling/bench/scripts/tasks-10k.mjs
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";

const root = new URL("../../../", import.meta.url).pathname;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-10k-"));
const dbPath = path.join(dir, "kandev.db");

function board() {
  const child = spawn(process.execPath, [path.join(root, "apps/backend/dist/main.js")], {
    env: { PATH: process.env.PATH, KANDEV_PORT: "0", KANDEV_SERVE_WEB: "false", KANDEV_DB_PATH: dbPath },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve) =>
    createInterface({ input: child.stdout }).on("line", (l) => {
      const m = /^Kandev board: (\S+)$/.exec(l);
      if (m) resolve({ child, url: m[1] });
    }),
  );
}

const stop = async (b) => {
  b.child.kill("SIGTERM");
  await new Promise((r) => b.child.once("exit", r));
};

await stop(await board()); // migrations
const db = new Database(dbPath);
const insertTask = db.prepare(
  "insert into tasks (id, title, state, pending_action, agent_profile_id, created_at, updated_at) values (?, ?, 'REVIEW', null, 'mock', ?, ?)",
);
const insertSession = db.prepare(
  "insert into sessions (id, task_id, agent_profile_id, state, created_at, updated_at) values (?, ?, 'mock', 'COMPLETED', ?, ?)",
);
db.transaction(() => {
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  for (let i = 0; i < 10_000; i++) {
    const at = new Date(t0 + i * 1000).toISOString();
    const id = randomUUID();
    insertTask.run(id, `task ${i}`, at, at);
    insertSession.run(randomUUID(), id, at, at);
  }
})();
db.close();

const b = await board();
async function time(p, runs = 5) {
  const ms = [];
  let count = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const res = await fetch(`${b.url}${p}`);
    count = (await res.json()).length;
    ms.push(performance.now() - t);
  }
  ms.sort((x, y) => x - y);
  return { path: p, items: count, median_ms: Math.round(ms[Math.floor(runs / 2)] * 10) / 10 };
}
console.log(JSON.stringify([await time("/api/v1/tasks?limit=100"), await time("/api/v1/tasks", 3)], null, 1));
await stop(b);
fs.rmSync(dir, { recursive: true, force: true });
