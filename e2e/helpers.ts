import fs from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { SessionSchema, TaskSchema, type Session, type Task } from "@kandev/protocol";

/** Opens the board and waits until its live subscription is acknowledged. */
export async function openBoard(page: Page, origin = ""): Promise<void> {
  await page.goto(`${origin}/`);
  await expect(page.getByTestId("ws-status")).toHaveAttribute("data-state", "open");
  await expect(page.getByTestId("board")).toHaveAttribute("data-live", "true");
}

/** Opens a task page and waits until its `{task_id}` subscription is acknowledged. */
export async function openTask(page: Page, taskId: string): Promise<void> {
  await page.goto(`/tasks/${taskId}`);
  await expect(page.getByTestId("task-page")).toHaveAttribute("data-live", "true");
}

/** Creates a task over the public REST API, the way automation would. */
export async function createTaskViaApi(
  request: APIRequestContext,
  body: { title: string; prompt: string; agent_profile_id?: string },
  /** Another board's origin; the test's own board by default. */
  origin = "",
): Promise<{ task: Task; session: Session }> {
  const res = await request.post(`${origin}/api/v1/tasks`, { data: body });
  expect(res.status(), await res.text()).toBe(201);
  const json = (await res.json()) as { task: unknown; session: unknown };
  return { task: TaskSchema.parse(json.task), session: SessionSchema.parse(json.session) };
}

/**
 * Marks the page so a later check can prove it was never reloaded (a reload would drop the mark).
 */
export async function markNoReload(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __kandevNoReload: boolean }).__kandevNoReload = true;
  });
}

export async function expectNotReloaded(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __kandevNoReload?: boolean }).__kandevNoReload)).toBe(true);
}

/** The board the elicitation specs run against (started with features.acpElicitation on). */
export const ELICITATION_BOARD = process.env.KANDEV_E2E_ELICIT_URL ?? "";

/**
 * Where screenshots go: test-results/screenshots (ignored by git), so a test run leaves the work
 * tree as it found it; `npm run screenshots` points KANDEV_SCREENSHOT_DIR at docs/screenshots to
 * refresh the committed ones.
 */
// An empty KANDEV_SCREENSHOT_DIR counts as unset: it would otherwise resolve to the repository root.
const screenshots = path.resolve(__dirname, "..", process.env.KANDEV_SCREENSHOT_DIR || path.join("test-results", "screenshots"));

/** Saves a screenshot of the page (or one element) to <screenshot dir>/<name>.png. */
export async function saveScreenshot(target: Page | Locator, name: string): Promise<void> {
  await target.screenshot({ path: path.join(screenshots, `${name}.png`), animations: "disabled", caret: "hide" });
}

/**
 * Records, from the first paint on, whether an element with this test id ever appears, so a test
 * can prove something never showed, not only that it is absent at the end.
 */
export async function recordAppearances(page: Page, testId: string): Promise<void> {
  await page.addInitScript((id) => {
    const w = window as unknown as { __kandevSeen?: Record<string, boolean> };
    w.__kandevSeen ??= {};
    const check = () => {
      if (document.querySelector(`[data-testid="${id}"]`)) (w.__kandevSeen as Record<string, boolean>)[id] = true;
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true });
  }, testId);
}

export async function everAppeared(page: Page, testId: string): Promise<boolean> {
  return page.evaluate((id) => (window as unknown as { __kandevSeen?: Record<string, boolean> }).__kandevSeen?.[id] === true, testId);
}

/** The agent's transcript text messages (what the mock agent reports), joined. */
export function agentMessages(page: Page): Locator {
  return page.getByTestId("message-list").locator('[data-author="agent"][data-type="text"]');
}

/** Records `<task id> <kind>` of every toast that ever shows, from the first paint on. */
export async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __kandevToasts?: string[] };
    w.__kandevToasts = [];
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="toast"]')) {
        const id = `${el.getAttribute("data-task-id") ?? ""} ${el.getAttribute("data-kind") ?? ""}`;
        if (!w.__kandevToasts?.includes(id)) w.__kandevToasts?.push(id);
      }
    }).observe(document, { subtree: true, childList: true });
  });
}

export async function toastedTasks(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __kandevToasts?: string[] }).__kandevToasts ?? []);
}

/** The pid the mock agent's `/e2e:pid` scenario said last on the page. */
export async function reportedAgentPid(page: Page): Promise<number> {
  const said = agentMessages(page)
    .filter({ hasText: /agent pid \d+/ })
    .last();
  await expect(said).toBeVisible();
  const pid = Number(/agent pid (\d+)/.exec((await said.textContent()) ?? "")?.[1]);
  expect(pid).toBeGreaterThan(0);
  return pid;
}

/** Whether a process has exited (a zombie not yet reaped counts as gone: it runs no more). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}
