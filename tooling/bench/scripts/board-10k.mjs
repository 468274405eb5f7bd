#!/usr/bin/env node
// Opens the board page on 10,000 tasks in Chromium (issue 36 item 7: "a board of 10,000 tasks
// still opens in about a second"). Each run is a fresh browser context (no cache, cold); it times
// page.goto() -> the first task card visible, and reads in the page when the card appeared after
// navigation start; then it loads the board twice more in that context (warm, as an operator
// reopening their board). Needs `npm run build` (the board serves apps/web/.next).
// Usage: node tooling/bench/scripts/board-10k.mjs [runs=3] [tasks=10000]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { median, root, seedTasks, startBoard, stopBoard } from "./seed-board.mjs";

const runs = Number(process.argv[2] ?? 3);
const tasks = Number(process.argv[3] ?? 10_000);
const browserOptions = JSON.parse(fs.readFileSync(path.join(root, "e2e/chromium.json"), "utf8"));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-board-10k-"));
const dbPath = path.join(dir, "kandev.db");
await seedTasks(dbPath, tasks);
const b = await startBoard(dbPath, { serveWeb: true });
const browser = await chromium.launch({ executablePath: browserOptions.executablePath, args: browserOptions.args });
const results = [];
const warm = [];
/** One load of the board in `page`: page.goto -> the first task card visible. */
async function load(page) {
  const t0 = performance.now();
  await page.goto(b.url, { waitUntil: "commit" });
  await page.locator('[data-testid^="task-row-"]').first().waitFor({ state: "visible", timeout: 60_000 });
  const wallMs = performance.now() - t0;
  const inPageMs = await page.evaluate(() => performance.now());
  const rows = await page.locator('[data-testid^="task-row-"]').count();
  return { wall_ms: Math.round(wallMs), since_navigation_ms: Math.round(inPageMs), rows };
}
try {
  for (let i = 0; i < runs; i++) {
    // A fresh context is a browser that never saw the board (cold); the loads after it in the
    // same context are the operator opening their board again (warm: scripts cached and compiled).
    const context = await browser.newContext();
    const page = await context.newPage();
    results.push({ run: i + 1, ...(await load(page)) });
    for (let j = 0; j < 2; j++) warm.push((await load(page)).wall_ms);
    await context.close();
  }
} finally {
  await browser.close();
  await stopBoard(b);
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(
  JSON.stringify(
    {
      tasks,
      runs: results,
      median_wall_ms: median(results.map((r) => r.wall_ms)),
      median_since_navigation_ms: median(results.map((r) => r.since_navigation_ms)),
      warm_loads_ms: warm,
      median_warm_ms: median(warm),
    },
    null,
    1,
  ),
);
