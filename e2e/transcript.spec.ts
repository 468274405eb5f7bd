import { MessageSchema } from "@kandev/protocol";
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

test("a long reply streamed live arrives as deltas and reads exactly as the agent sent it", async ({ page }) => {
  const { task, session } = await createTaskViaApi(page.request, { title: "A long reply", prompt: "/e2e:echo first" });
  const deltas: string[] = [];
  page.on("websocket", (ws) =>
    ws.on("framereceived", ({ payload }) => {
      const text = String(payload);
      if (text.includes('"session.message.appended"')) deltas.push(text);
    }),
  );
  await openTask(page, task.id);
  const input = page.getByTestId("prompt-input");
  await expect(input).toBeEnabled();
  await input.fill("/e2e:flood 2000 10");
  await input.press("Enter");

  // 2,000 chunks of 10 characters; the first is "0." padded with dashes (mock-agent's floodChunk).
  const reply = page.getByTestId("message-list").locator('[data-author="agent"][data-type="text"]').last();
  await expect(reply.locator(".bubble__text")).toHaveText(/^0\.-{8}1\.-{8}/);
  await expect(page.getByTestId("task-page").getByTestId("task-state-turn-finished").first()).toBeVisible();
  const res = await page.request.get(`/api/v1/sessions/${session.id}/messages`);
  const stored = MessageSchema.array()
    .parse(await res.json())
    .at(-1);
  expect(stored?.content.length).toBe(20_000);
  // Agent text is Markdown: the flood is one line with no Markdown in it, so it must stay one
  // paragraph holding exactly the stored text (no dash run read as a rule, no "0." as a list).
  await expect(reply.locator(".bubble__text > *")).toHaveCount(1);
  await expect(reply.locator(".bubble__text > p")).toHaveText(stored?.content ?? "");
  expect(deltas.length).toBeGreaterThan(0);
  expect(deltas.length).toBeLessThan(2000);
});
