import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { SessionSchema, TaskSchema, type Session, type Task } from "@kandev/protocol";

/** Opens the board and waits until its live subscription is acknowledged. */
export async function openBoard(page: Page): Promise<void> {
  await page.goto("/");
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
  body: { title: string; prompt: string },
): Promise<{ task: Task; session: Session }> {
  const res = await request.post("/api/v1/tasks", { data: body });
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
