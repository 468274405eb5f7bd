// A task page holding a long transcript, in Chromium: the messages are written straight into the
// board's database (as scripts/seed-board.mjs does for tasks), then the page is opened cold and
// warm (navigation start -> the newest message on screen), and keys are typed into its prompt box
// (keydown -> the next frame after the box changed), with the longest task the page ran.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { CHROMIUM } from "./board.js";
import { startBackend } from "./product.js";
import type { TranscriptPageResult } from "./streaming-report.js";

export interface TranscriptPageOptions {
  dir: string;
  messages: number;
  warmLoads: number;
  chromium: string;
  log: (line: string) => void;
}

/** What the init script keeps in the page (window.__transcript). */
interface Probe {
  shownAt: number | null;
  longest: number;
  keys: number[];
}

/** Writes one task, its waiting session and `count` messages (user and agent in turn); returns the task and newest message ids. */
function seedTranscript(dbFile: string, count: number): { taskId: string; lastMessageId: string } {
  const db = new Database(dbFile);
  try {
    db.pragma("busy_timeout = 5000");
    const taskId = randomUUID();
    const sessionId = randomUUID();
    const t0 = Date.now() - count * 1000;
    const at = (i: number) => new Date(t0 + i * 1000).toISOString();
    const insert = db.prepare(
      "INSERT INTO messages (id, session_id, task_id, turn_id, author_type, type, content, created_at) VALUES (?, ?, ?, NULL, ?, 'text', ?, ?)",
    );
    let lastMessageId = "";
    db.transaction(() => {
      db.prepare(
        "INSERT INTO tasks (id, title, state, pending_action, agent_profile_id, created_at, updated_at) VALUES (?, ?, 'REVIEW', NULL, 'mock', ?, ?)",
      ).run(taskId, "A long conversation", at(0), at(count));
      db.prepare(
        "INSERT INTO sessions (id, task_id, agent_profile_id, state, created_at, updated_at) VALUES (?, ?, 'mock', 'WAITING_FOR_INPUT', ?, ?)",
      ).run(sessionId, taskId, at(0), at(count));
      for (let i = 0; i < count; i++) {
        lastMessageId = randomUUID();
        const agent = i % 2 === 1;
        const content = agent
          ? `Step ${i}: I read \`src/module-${i % 97}.ts\`, moved the parsing into a function of its own and ran the tests; ${i % 7} of them needed their fixtures updated. Next I will look at the callers.`
          : `Message ${i}: please tidy src/module-${i % 97}.ts and keep its tests passing.`;
        insert.run(lastMessageId, sessionId, taskId, agent ? "agent" : "user", content, at(i));
      }
    })();
    return { taskId, lastMessageId };
  } finally {
    db.close();
  }
}

/** The in-page probe; plain JavaScript in a string (a function would be transpiled with helpers the page lacks). */
function pageProbe(lastMessageId: string): string {
  return `(() => {
  const probe = { shownAt: null, longest: 0, keys: [] };
  window.__transcript = probe;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) probe.longest = Math.max(probe.longest, e.duration); }).observe({ type: "longtask", buffered: true });
  const selector = '[data-testid="message-' + ${JSON.stringify(lastMessageId)} + '"]';
  let watching = false;
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.height > 0 && r.bottom > 0 && r.top < innerHeight; };
  const watch = () => {
    const el = document.querySelector(selector);
    if (el === null || watching) return;
    watching = true;
    const look = () => (visible(el) ? (probe.shownAt = performance.now()) : requestAnimationFrame(look));
    requestAnimationFrame(look);
  };
  document.addEventListener("DOMContentLoaded", () => new MutationObserver(watch).observe(document.body, { subtree: true, childList: true }));
  let keyAt = null;
  document.addEventListener("keydown", (e) => (keyAt = e.timeStamp), true);
  document.addEventListener("input", () => {
    const t = keyAt;
    keyAt = null;
    if (t !== null) requestAnimationFrame(() => probe.keys.push(performance.now() - t));
  }, true);
})();`;
}

const TYPED = "Thanks, now the callers";

export async function measureTranscriptPage(options: TranscriptPageOptions): Promise<TranscriptPageResult | { error: string }> {
  const { log } = options;
  if (!fs.existsSync(options.chromium)) return { error: `no Chromium at ${options.chromium}` };
  const { service, url } = await startBackend(options.dir, { serveWeb: true, name: "transcript" });
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({ executablePath: options.chromium, args: CHROMIUM.args });
  try {
    const { taskId, lastMessageId } = seedTranscript(path.join(options.dir, "transcript.db"), options.messages);
    const page = await browser.newPage();
    await page.addInitScript({ content: pageProbe(lastMessageId) });
    const loads: number[] = [];
    let longest = 0;
    const probe = () => page.evaluate(() => (window as unknown as { __transcript: Probe }).__transcript);
    for (let i = 0; i <= options.warmLoads; i++) {
      await page.goto(`${url}/tasks/${taskId}`, { waitUntil: "commit" });
      await page.waitForFunction(() => (window as unknown as { __transcript: Probe }).__transcript.shownAt !== null, undefined, { timeout: 60_000 });
      const p = await probe();
      loads.push(p.shownAt!);
      // The cold load compiles every script once; "stays responsive" is about the page in use.
      if (i > 0) longest = Math.max(longest, p.longest);
      log(`transcript: load ${i + 1}: the newest of ${options.messages} messages on screen after ${p.shownAt!.toFixed(0)} ms`);
    }
    const box = page.getByTestId("prompt-input");
    await box.click();
    await page.keyboard.type(TYPED, { delay: 30 });
    await page.waitForFunction((n) => (window as unknown as { __transcript: Probe }).__transcript.keys.length >= n, TYPED.length, {
      timeout: 10_000,
    });
    const typed = await box.inputValue();
    if (typed !== TYPED) throw new Error(`the prompt box holds ${JSON.stringify(typed)} after typing ${JSON.stringify(TYPED)}`);
    const p = await probe();
    return { messages: options.messages, coldMs: loads[0]!, warmMs: loads.slice(1), keyMs: p.keys, longTaskMaxMs: Math.max(longest, p.longest) };
  } finally {
    await browser.close();
    await service.stop(15_000);
  }
}
