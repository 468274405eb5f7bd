import { MessageSchema, type Task } from "@kandev/protocol";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { startBoard, type StartedBoard } from "./board";
import { expect, test } from "./fixtures";
import { createTaskViaApi, openBoard, openTask } from "./helpers";

// Issue 36 item 7: the board and a transcript load in pages (100 each, apps/web/lib/api.ts),
// newest first, older ones on scroll or on a button, and live updates keep the loaded pages whole.

const PAGE = 100;
const TASKS = 250;

const rows = (page: Page): Locator => page.locator('[data-testid^="task-row-"]:not([data-testid="task-row-branch"])');
const titled = (page: Page, n: number): Locator =>
  page.locator(".task-row__title").filter({ hasText: new RegExp(`^Paged task ${String(n).padStart(3, "0")}$`) });

test.describe("a board of more tasks than one page", () => {
  // Its own board, so "the newest page" holds exactly the tasks made here.
  let board: StartedBoard;
  const tasks: Task[] = [];

  test.beforeAll(async ({ playwright }) => {
    board = await startBoard({});
    const request = await playwright.request.newContext({ baseURL: board.url });
    // An agent that exits at once: each task fails fast and no agent process stays behind.
    const profile = await request.post("/api/v1/agent-profiles", { data: { name: "Quits at once", command: ["true"] } });
    expect(profile.status(), await profile.text()).toBe(201);
    const profileId = ((await profile.json()) as { id: string }).id;
    for (let n = 1; n <= TASKS; n++) {
      const title = `Paged task ${String(n).padStart(3, "0")}`;
      tasks.push((await createTaskViaApi(request, { title, prompt: "hello", agent_profile_id: profileId })).task);
    }
    await request.dispose();
  });
  test.afterAll(async () => {
    await board?.stop();
  });

  test("opens with the newest page, loads older tasks on scroll and on the button, and stays live", async ({ page }) => {
    await openBoard(page, board.url);
    await expect(rows(page)).toHaveCount(PAGE);
    await expect(titled(page, TASKS)).toBeVisible();
    await expect(titled(page, TASKS - PAGE + 1)).toHaveCount(1);
    await expect(titled(page, TASKS - PAGE)).toHaveCount(0);
    await expect(page.getByTestId("board-count")).toHaveText(`${PAGE} newest tasks loaded; older ones load as you scroll`);

    // The search box searches what is loaded, and says so.
    await page.getByTestId("board-filter").fill("Paged task 010");
    await expect(rows(page)).toHaveCount(0);
    await expect(page.getByTestId("board-filter-partial")).toContainText(`${PAGE} loaded tasks`);
    await page.getByTestId("board-filter").fill("");
    await expect(rows(page)).toHaveCount(PAGE);

    // Scrolling to the end loads the next page.
    await page.getByTestId("board-more").scrollIntoViewIfNeeded();
    await expect(rows(page)).toHaveCount(2 * PAGE);
    await expect(titled(page, TASKS - PAGE)).toHaveCount(1);

    // The button loads the last one, from the keyboard too; then the list is whole.
    await focusWithoutScrolling(page.getByTestId("load-more-tasks"));
    await page.keyboard.press("Enter");
    await expect(rows(page)).toHaveCount(TASKS);
    await expect(titled(page, 1)).toHaveCount(1);
    await expect(page.getByTestId("load-more-tasks")).toHaveCount(0);
    await expect(page.getByTestId("board-count")).toHaveText(`${TASKS} tasks`);

    // Live: a new task joins the top, a rename lands in place on the last page, a delete leaves.
    const { task: fresh } = await createTaskViaApi(
      page.request,
      { title: "Paged task new", prompt: "hello", agent_profile_id: tasks[0]?.agent_profile_id },
      board.url,
    );
    await expect(rows(page).first()).toHaveAttribute("data-testid", `task-row-${fresh.id}`);
    const fifth = tasks[4] as Task;
    const renamed = await page.request.patch(`${board.url}/api/v1/tasks/${fifth.id}`, { data: { title: "Paged task renamed" } });
    expect(renamed.status()).toBe(200);
    await expect(page.getByTestId(`task-row-${fifth.id}`)).toContainText("Paged task renamed");
    const tenth = tasks[9] as Task;
    const deleted = await page.request.delete(`${board.url}/api/v1/tasks/${tenth.id}`);
    expect(deleted.status()).toBe(204);
    await expect(page.getByTestId(`task-row-${tenth.id}`)).toHaveCount(0);
    await expect(rows(page)).toHaveCount(TASKS);
    await expect(page.getByTestId("board-count")).toHaveText(`${TASKS} tasks`);
  });
});

/** Focuses a button where it is: scrolling to it would load by itself and hide what the button does. */
async function focusWithoutScrolling(button: Locator): Promise<void> {
  await button.evaluate((el) => (el as HTMLElement).focus({ preventScroll: true }));
}

/** Every message of a session, oldest first (the whole list: no `limit`). */
async function allMessages(request: APIRequestContext, sessionId: string) {
  const res = await request.get(`/api/v1/sessions/${sessionId}/messages`);
  expect(res.status()).toBe(200);
  return MessageSchema.array().parse(await res.json());
}

test("a long transcript opens at its end and loads earlier messages above without moving the view", async ({ page }) => {
  const steps = 2 * PAGE + 50;
  const { task, session } = await createTaskViaApi(page.request, { title: "Long transcript", prompt: `/e2e:steps ${steps}` });
  await expect.poll(async () => (await allMessages(page.request, session.id)).some((m) => m.content === `Done with ${steps} steps.`)).toBe(true);
  await expect.poll(async () => (await page.request.get(`/api/v1/tasks/${task.id}`).then((r) => r.json())).turn_active).toBe(false);
  const ids = (await allMessages(page.request, session.id)).map((m) => `message-${m.id}`);
  expect(ids.length).toBeGreaterThan(2 * PAGE);

  await openTask(page, task.id);
  const list = page.getByTestId("message-list");
  const shown = list.locator(':scope > li[data-testid^="message-"]');
  await expect(shown).toHaveCount(PAGE);
  await expect(shown.first()).toHaveAttribute("data-testid", ids[ids.length - PAGE] as string);
  await expect(shown.last()).toHaveAttribute("data-testid", ids.at(-1) as string);
  await expect(list.getByText(`Done with ${steps} steps.`)).toBeInViewport();

  // Scrolling to the top loads the page before, and the message that was first stays where it was.
  const anchor = page.getByTestId(ids[ids.length - PAGE] as string);
  await page.evaluate(() => window.scrollTo({ top: 0 }));
  const before = (await anchor.boundingBox())?.y ?? Number.NaN;
  await expect(shown).toHaveCount(2 * PAGE);
  await expect(shown.first()).toHaveAttribute("data-testid", ids[ids.length - 2 * PAGE] as string);
  await expect.poll(async () => Math.abs(((await anchor.boundingBox())?.y ?? Number.NaN) - before)).toBeLessThan(2);

  // The button loads the rest: the transcript from its first message, the operator's prompt.
  await focusWithoutScrolling(page.getByTestId("load-earlier-messages"));
  await page.keyboard.press("Enter");
  await expect(shown).toHaveCount(ids.length);
  await expect(shown.first()).toHaveAttribute("data-testid", ids[0] as string);
  await expect(shown.first()).toHaveAttribute("data-author", "user");
  await expect(page.getByTestId("load-earlier-messages")).toHaveCount(0);

  // Live messages still arrive at the end of a transcript loaded in pages.
  await page.getByTestId("prompt-input").fill("/e2e:echo after paging");
  await page.getByTestId("prompt-input").press("Enter");
  await expect(list.locator('[data-author="agent"][data-type="text"]').last()).toContainText("after paging");
});
