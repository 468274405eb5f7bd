import { expect, test } from "./fixtures";
import { expectNotReloaded, markNoReload, openBoard } from "./helpers";

test("a task created in the dialog streams its reply, and an open board follows it live", async ({ page, context }) => {
  // A second tab keeps the board open the whole time; it must update without a reload.
  const board = await context.newPage();
  await openBoard(board);
  await markNoReload(board);

  await openBoard(page);
  await page.getByTestId("create-task-button").click();
  await page.getByTestId("create-task-title").fill("Echo from e2e");
  await page.getByTestId("create-task-prompt").fill("/e2e:echo hello from e2e");
  await expect(page.getByTestId("create-task-profile")).toHaveValue("mock");
  await page.getByTestId("create-task-submit").click();

  await page.waitForURL(/\/tasks\/[^/]+$/);
  const taskId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  expect(taskId).not.toBe("");

  const list = page.getByTestId("message-list");
  await expect(list.locator('[data-author="user"][data-type="text"]').first()).toContainText("/e2e:echo hello from e2e");
  await expect(list.locator('[data-author="agent"][data-type="text"]').first()).toContainText("hello from e2e");
  await expect(page.getByTestId("task-page").getByTestId("task-state-turn-finished").first()).toBeVisible();
  await expect(page.getByTestId("prompt-input")).toBeEnabled();
  await expect(page.getByTestId("cancel-turn")).toHaveCount(0);

  // The board tab saw the task appear and reach "turn finished" on its own.
  const row = board.getByTestId(`task-row-${taskId}`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("Echo from e2e");
  await expect(row.getByTestId("task-state-turn-finished")).toBeVisible();
  await expect(board.getByTestId("column-review").getByTestId(`task-row-${taskId}`)).toBeVisible();
  await expectNotReloaded(board);

  // And the row leads back to the task.
  await markNoReload(page);
  await page.getByRole("link", { name: /board/i }).first().click();
  await page.getByTestId(`task-row-${taskId}`).click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${taskId}$`));
  await expect(page.getByTestId("message-list")).toContainText("hello from e2e");
  await expectNotReloaded(page);
});

test("the dialog refuses a blank title next to its field and keeps what was typed", async ({ page }) => {
  await openBoard(page);
  await page.getByTestId("create-task-button").click();
  await page.getByTestId("create-task-prompt").fill("/e2e:echo never sent");
  await page.getByTestId("create-task-submit").click();
  const title = page.getByTestId("create-task-title");
  await expect(title).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("create-task-prompt")).toHaveValue("/e2e:echo never sent");
  await expect(page).toHaveURL(/\/$/);
});
