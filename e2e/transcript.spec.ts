import { expect, test } from "./fixtures";
import { createTaskViaApi, openTask } from "./helpers";

test("agent text is shown exactly as sent, never as HTML", async ({ page }) => {
  const payload = '<img src=x onerror="window.__kandevXss=1"><b>not bold</b>';
  const { task } = await createTaskViaApi(page.request, { title: "Markup in a reply", prompt: `/e2e:echo ${payload}` });
  await openTask(page, task.id);

  const reply = page.getByTestId("message-list").locator('[data-author="agent"][data-type="text"]').first();
  await expect(reply).toContainText(payload);
  await expect(reply.locator("b, img")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __kandevXss?: number }).__kandevXss)).toBeUndefined();
});

test("Enter sends a follow-up prompt and Shift+Enter keeps a new line", async ({ page }) => {
  const { task } = await createTaskViaApi(page.request, { title: "Follow-up", prompt: "/e2e:echo first" });
  await openTask(page, task.id);
  const input = page.getByTestId("prompt-input");
  await expect(input).toBeEnabled();

  await input.click();
  await input.pressSequentially("/e2e:echo second");
  await input.press("Shift+Enter");
  await input.pressSequentially("line");
  await expect(input).toHaveValue("/e2e:echo second\nline");
  await input.press("Enter");

  const list = page.getByTestId("message-list");
  await expect(list.locator('[data-author="user"][data-type="text"]')).toHaveCount(2);
  await expect(list.locator('[data-author="agent"][data-type="text"]').last()).toContainText("second\nline");
  await expect(input).toHaveValue("");
  await expect(input).toBeEnabled();
});

test("a permission request is answered from its option buttons", async ({ page }) => {
  const { task } = await createTaskViaApi(page.request, { title: "Needs permission", prompt: "/e2e:permission Write notes.txt" });
  await openTask(page, task.id);

  const request = page.getByTestId("message-list").locator('[data-type="permission_request"]');
  await expect(request).toContainText("Write notes.txt");
  await expect(page.getByTestId("task-page").getByTestId("task-state-waiting-for-permission").first()).toBeVisible();
  await request.getByTestId("permission-option-allow-once").click();

  await expect(page.getByTestId("message-list").locator('[data-author="agent"][data-type="text"]').last()).toContainText(
    "Permission granted: allow-once",
  );
  await expect(request.getByRole("button")).toHaveCount(0);
  await expect(page.getByTestId("task-page").getByTestId("task-state-turn-finished").first()).toBeVisible();
});

test("an unknown task id says so instead of spinning", async ({ page }) => {
  await page.goto("/tasks/no-such-task");
  await expect(page.getByRole("alert").filter({ hasText: "does not exist" })).toBeVisible();
  await page.getByRole("link", { name: /board/i }).first().click();
  await expect(page.getByTestId("board")).toBeVisible();
});

test("the task page is titled after its task", async ({ page }) => {
  const { task } = await createTaskViaApi(page.request, { title: "A titled task", prompt: "/e2e:echo hi" });
  await openTask(page, task.id);
  await expect(page).toHaveTitle(/A titled task/);
  await page.getByRole("link", { name: /board/i }).first().click();
  await expect(page.getByTestId("board")).toBeVisible();
  await expect(page).toHaveTitle("Kandev");
});
