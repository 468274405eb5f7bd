#!/usr/bin/env node
// Measures GET /api/v1/tasks on a board of 10,000 tasks (issue 36 item 7): the first page the web
// app opens with (limit=100) against the whole list. Seeds the SQLite file directly, then starts
// the built board (node apps/backend/dist/main.js) on it. Usage: node tooling/bench/scripts/tasks-10k.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { median, seedTasks, startBoard, stopBoard } from "./seed-board.mjs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-10k-"));
const dbPath = path.join(dir, "kandev.db");
await seedTasks(dbPath, 10_000);

const b = await startBoard(dbPath);
async function time(p, runs = 5) {
  const ms = [];
  let count = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const res = await fetch(`${b.url}${p}`);
    count = (await res.json()).length;
    ms.push(performance.now() - t);
  }
  return { path: p, items: count, median_ms: Math.round(median(ms) * 10) / 10 };
}
console.log(JSON.stringify([await time("/api/v1/tasks?limit=100"), await time("/api/v1/tasks", 3)], null, 1));
await stopBoard(b);
fs.rmSync(dir, { recursive: true, force: true });
