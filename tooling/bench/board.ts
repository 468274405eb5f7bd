// The board in Chromium: a board of 1,000 tasks opens (navigation start -> its first page of rows
// in the DOM: the web app loads tasks 100 at a time, apps/web/lib/api.ts), and one
// task's icon follows its `task.updated` frame (frame received in the page -> the icon changed in
// the DOM and the next frame began). Measured inside the page with performance.now(), a wrapped
// WebSocket and a MutationObserver; the backend runs the built web app (apps/web/.next).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import type { Clarification, Session, Task } from "@kandev/protocol";
import { ANSWER_TEXT } from "./floor.js";
import { JsonClient, expectStatus } from "./http-json.js";
import { startBackend, withTimeout } from "./product.js";
import type { BoardResult } from "./report.js";
import { latenciesAfterCauses } from "./stats.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WEB_BUILD_ID = path.join(REPO_ROOT, "apps/web/.next/BUILD_ID");
/** Debian's Chromium and its container flags: the Playwright suite's flags, the full browser (e2e/chromium.json). */
export const CHROMIUM = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "e2e/chromium.json"), "utf8")) as {
  executablePath: string;
  benchExecutablePath: string;
  args: string[];
};

/** Rows the board shows before the operator scrolls: the web app's TASK_PAGE_SIZE (apps/web/lib/api.ts). */
export const FIRST_PAGE_ROWS = 100;

export interface BoardOptions {
  dir: string;
  quick: boolean;
  chromium: string;
  tasks?: number;
  log: (line: string) => void;
}

/** What the init script keeps in the page (window.__bench). */
interface PageProbe {
  /** Starts watching a task's icon from its current state. */
  arm(taskId: string): void;
  expectRows: number;
  rowsAt: number | null;
  watch: string | null;
  frames: number[];
  icons: Array<{ dom: number; frame: number; icon: string }>;
}

/**
 * Runs in the page before any of its scripts: stamps every WS frame that mentions the watched
 * task, and every change of that task's icon (DOM time and the next animation frame). Plain
 * JavaScript in a string: a function would be transpiled by tsx with helpers the page lacks.
 */
function pageProbe(expectRows: number): string {
  return `(() => {
  let lastIcon = null;
  const iconOf = (id) => document.querySelector('[data-testid="task-row-' + id + '"] [data-testid^="task-state-"]')?.getAttribute("data-testid") ?? null;
  const probe = {
    arm(taskId) { probe.watch = taskId; lastIcon = iconOf(taskId); },
    expectRows: ${JSON.stringify(expectRows)},
    rowsAt: null,
    watch: null,
    frames: [],
    icons: [],
  };
  window.__bench = probe;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      // Registered before the app's own handler, so this is when the frame reached the page.
      this.addEventListener("message", (e) => {
        const t = performance.now();
        if (probe.watch !== null && typeof e.data === "string" && e.data.includes('"task.updated"') && e.data.includes(probe.watch)) probe.frames.push(t);
      });
    }
  };
  const observer = new MutationObserver(() => {
    const now = performance.now();
    if (probe.rowsAt === null && document.querySelectorAll('[data-testid^="task-row-"]').length >= probe.expectRows) probe.rowsAt = now;
    if (probe.watch === null) return;
    const icon = iconOf(probe.watch);
    if (icon === null || icon === lastIcon) return;
    lastIcon = icon;
    const entry = { dom: now, frame: NaN, icon };
    probe.icons.push(entry);
    requestAnimationFrame(() => (entry.frame = performance.now()));
  });
  document.addEventListener("DOMContentLoaded", () => observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-testid", "class"] }));
})();`;
}

/** Inserts `count` tasks straight into the board's database (no sessions: nothing to start). */
function seedTasks(dbFile: string, count: number): void {
  const db = new Database(dbFile);
  try {
    db.pragma("busy_timeout = 5000");
    const states = ["TODO", "REVIEW", "COMPLETED", "FAILED", "CANCELLED", "REVIEW", "COMPLETED"];
    const insert = db.prepare(
      "INSERT INTO tasks (id, title, state, pending_action, agent_profile_id, created_at, updated_at) VALUES (?, ?, ?, NULL, 'mock', ?, ?)",
    );
    const start = Date.now() - count * 60_000;
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const at = new Date(start + i * 60_000).toISOString();
        insert.run(`bench-task-${String(i).padStart(5, "0")}`, `Benchmark task ${i + 1}: tidy the build scripts`, states[i % states.length], at, at);
      }
    })();
  } finally {
    db.close();
  }
}

export async function measureBoard(options: BoardOptions): Promise<BoardResult | { error: string }> {
  const { log } = options;
  if (!fs.existsSync(WEB_BUILD_ID)) return { error: "apps/web/.next is missing: run npm run build" };
  if (!fs.existsSync(options.chromium)) return { error: `no Chromium at ${options.chromium}` };
  const tasks = options.tasks ?? 1000;
  const { service, url } = await startBackend(options.dir, { serveWeb: true, name: "board" });
  const http = new JsonClient(url);
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({ executablePath: options.chromium, args: CHROMIUM.args });
  try {
    seedTasks(path.join(options.dir, "board.db"), tasks - 1);
    // The watched task is real (agentctl + mock agent), so its updates are the product's own.
    const created = expectStatus(
      await http.post<{ task: Task; session: Session }>("/api/v1/tasks", { title: "Watched task", prompt: "/e2e:plain" }),
      201,
      "create task",
    );
    const taskId = created.task.id;
    await waitTaskState(http, taskId, "REVIEW");
    const page = await browser.newPage();
    const rows = Math.min(tasks, FIRST_PAGE_ROWS);
    await page.addInitScript({ content: pageProbe(rows) });
    const loads = options.quick ? 3 : 6;
    const renderMs: number[] = [];
    for (let i = 0; i < loads; i++) {
      await page.goto(url, { waitUntil: "commit" });
      await page.waitForFunction(() => (window as unknown as { __bench: PageProbe }).__bench.rowsAt !== null, undefined, { timeout: 60_000 });
      renderMs.push(await page.evaluate(() => (window as unknown as { __bench: PageProbe }).__bench.rowsAt!));
      log(`board: load ${i + 1}: ${rows} rows of ${tasks} tasks after ${renderMs.at(-1)!.toFixed(0)} ms`);
    }
    await page.waitForSelector('[data-testid="board"][data-live="true"]', { timeout: 30_000 });
    await page.evaluate((id) => (window as unknown as { __bench: PageProbe }).__bench.arm(id), taskId);
    const cycles = options.quick ? 3 : 10;
    for (let c = 0; c < cycles; c++) {
      // Each cycle: running -> waiting for input -> running -> turn finished, each from a task.updated.
      expectStatus(await http.post(`/api/v1/sessions/${created.session.id}/prompt`, { text: "/e2e:bench-elicit 1" }), 202, "prompt");
      const pending = await waitPending(http, created.session.id);
      await page.waitForSelector(`[data-testid="task-row-${taskId}"] [data-testid="task-state-waiting-for-input"]`, { timeout: 30_000 });
      expectStatus(await http.postText(`/api/v1/clarifications/${pending}/respond`, ANSWER_TEXT), 200, "answer");
      await waitTaskState(http, taskId, "REVIEW");
      await page.waitForSelector(`[data-testid="task-row-${taskId}"] [data-testid="task-state-turn-finished"]`, { timeout: 30_000 });
    }
    await page.waitForTimeout(200); // the last icon's animation-frame stamp
    const probe = await page.evaluate(() => {
      const { frames, icons } = (window as unknown as { __bench: PageProbe }).__bench;
      return { frames, icons };
    });
    const iconMs = latenciesAfterCauses(
      probe.frames,
      probe.icons.map((i) => ({ at: i.dom, done: Number.isFinite(i.frame) ? i.frame : i.dom })),
    );
    log(`board: ${probe.icons.length} icon changes after ${probe.frames.length} task.updated frames`);
    return { tasks, rows, coldRenderMs: renderMs[0]!, renderMs: renderMs.slice(1), iconMs };
  } finally {
    await browser.close();
    http.close();
    await service.stop(15_000);
  }
}

async function waitTaskState(http: JsonClient, taskId: string, state: string): Promise<void> {
  await withTimeout(
    (async () => {
      for (;;) {
        const t = expectStatus(await http.get<Task>(`/api/v1/tasks/${taskId}`), 200, "get task");
        if (t.state === state) return;
        await new Promise((r) => setTimeout(r, 25));
      }
    })(),
    60_000,
    () => `task ${taskId} never reached ${state}`,
  );
}

async function waitPending(http: JsonClient, sessionId: string): Promise<string> {
  return withTimeout(
    (async () => {
      for (;;) {
        const list = expectStatus(
          await http.get<Clarification[]>(`/api/v1/clarifications?session_id=${sessionId}&status=pending`),
          200,
          "list clarifications",
        );
        if (list[0] !== undefined) return list[0].pending_id;
        await new Promise((r) => setTimeout(r, 25));
      }
    })(),
    60_000,
    () => `no pending clarification on session ${sessionId}`,
  );
}
