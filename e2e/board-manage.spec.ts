import type { Page } from "@playwright/test";
import { TaskSchema, type Task } from "@kandev/protocol";
import { expect, test } from "./fixtures";
import { createTaskViaApi, openBoard, openTask, saveScreenshot } from "./helpers";

// Issue 36, item 1: the board can be kept tidy. Tasks are renamed, dragged (or moved with the
// keyboard) from Review to Done and back, archived and restored, and found with the search box.

async function reviewTask(page: Page, title: string, profileId: string): Promise<Task> {
  const { task } = await createTaskViaApi(page.request, { title, prompt: "/e2e:echo done", agent_profile_id: profileId });
  await expect.poll(async () => (await apiTask(page, task.id)).state).toBe("REVIEW");
  return task;
}

async function apiTask(page: Page, id: string): Promise<Task> {
  return TaskSchema.parse(await (await page.request.get(`/api/v1/tasks/${id}`)).json());
}

test("a task in Review is dragged to Done (its session ends) and moved back with Shift+Left", async ({ page, agent }) => {
  const task = await reviewTask(page, `Drag me ${Date.now()}`, agent.profileId);
  await openBoard(page);
  const row = page.getByTestId(`task-row-${task.id}`);
  await expect(page.getByTestId("column-review").getByTestId(`task-row-${task.id}`)).toBeVisible();

  await row.dragTo(page.getByTestId("column-done"));
  await expect(page.getByTestId("column-done").getByTestId(`task-row-${task.id}`)).toBeVisible();
  await expect(page.getByTestId("board-move-status")).toContainText("moved to Done");
  const done = await apiTask(page, task.id);
  expect([done.state, done.session_state]).toEqual(["COMPLETED", "COMPLETED"]);

  await page.getByTestId(`task-row-${task.id}`).focus();
  await page.keyboard.press("Shift+ArrowLeft");
  await expect(page.getByTestId("column-review").getByTestId(`task-row-${task.id}`)).toBeVisible();
  expect((await apiTask(page, task.id)).state).toBe("REVIEW");
  await page.getByTestId(`task-row-${task.id}`).focus();
  await page.keyboard.press("Shift+ArrowRight");
  await expect(page.getByTestId("column-done").getByTestId(`task-row-${task.id}`)).toBeVisible();
});

test("a task is renamed on its page; a blank title is refused in words", async ({ page, agent }) => {
  const task = await reviewTask(page, "Old name", agent.profileId);
  await openTask(page, task.id);
  await page.getByTestId("rename-task").click();
  await page.getByTestId("rename-task-input").fill("   ");
  await page.getByTestId("rename-task-save").click();
  await expect(page.getByTestId("rename-task-error")).toHaveText("Give the task a title.");
  await page.getByTestId("rename-task-input").fill("New name");
  await page.getByTestId("rename-task-input").press("Enter");
  await expect(page.getByTestId("task-title")).toHaveText("New name");
  expect((await apiTask(page, task.id)).title).toBe("New name");
});

test("a task is archived off the board, listed under Archived, and restored", async ({ page, agent }) => {
  const title = `Archive me ${Date.now()}`;
  const task = await reviewTask(page, title, agent.profileId);
  await openTask(page, task.id);
  await page.getByTestId("archive-task").click();
  await expect(page.getByTestId("task-archived")).toBeVisible();

  await openBoard(page);
  await expect(page.getByTestId(`task-row-${task.id}`)).toHaveCount(0);
  await page.getByTestId("show-archived").click();
  const archived = page.getByTestId(`archived-task-${task.id}`);
  await expect(archived).toContainText(title);
  await saveScreenshot(page, "board-archived");
  await page.getByTestId(`restore-task-${task.id}`).click();
  await expect(archived).toHaveCount(0);
  await expect(page.getByTestId("column-review").getByTestId(`task-row-${task.id}`)).toBeVisible();
  expect((await apiTask(page, task.id)).archived).toBe(false);
});

test("the search box narrows the board by title, state and agent", async ({ page, agent }) => {
  const stamp = Date.now();
  const a = await reviewTask(page, `Alpha ${stamp}`, agent.profileId);
  const b = await reviewTask(page, `Beta ${stamp}`, "mock");
  await openBoard(page);
  const filter = page.getByTestId("board-filter");
  await filter.fill(`alpha ${stamp}`);
  await expect(page.getByTestId(`task-row-${a.id}`)).toBeVisible();
  await expect(page.getByTestId(`task-row-${b.id}`)).toHaveCount(0);
  await filter.fill(`${stamp} ready for review ${agent.profileId}`);
  await expect(page.getByTestId(`task-row-${a.id}`)).toBeVisible();
  await expect(page.getByTestId(`task-row-${b.id}`)).toHaveCount(0);
  await filter.fill(`${stamp} built-in-agent-that-is-not-there`);
  await expect(page.getByText("No task matches your search.")).toBeVisible();
  await filter.fill("");
  await expect(page.getByTestId(`task-row-${b.id}`)).toBeVisible();
});

test("a task without a workspace is deleted from its page, and leaves the board", async ({ page, agent }) => {
  const task = await reviewTask(page, `Delete me ${Date.now()}`, agent.profileId);
  await openTask(page, task.id);
  await page.getByTestId("delete-task").click();
  await expect(page.getByTestId("delete-task-question")).toHaveText("Delete this task, its session and its messages?");
  await page.getByTestId("delete-task-confirm").click();
  await expect(page.getByTestId("board")).toBeVisible();
  await expect(page.getByTestId(`task-row-${task.id}`)).toHaveCount(0);
  expect((await page.request.get(`/api/v1/tasks/${task.id}`)).status()).toBe(404);
});
