import { expect, test } from "./fixtures";
import { createTaskViaApi, openTask } from "./helpers";

test("a prompt sent while the agent works is queued: one is cancelled, another sent now stops the turn and is answered", async ({ page }) => {
  // /e2e:hang keeps the turn running until it is cancelled, however loaded the machine is.
  const { task } = await createTaskViaApi(page.request, { title: "Queue while working", prompt: "/e2e:hang" });
  await openTask(page, task.id);
  const head = page.getByTestId("task-page");
  await expect(head.getByTestId("task-state-running").first()).toBeVisible();

  const input = page.getByTestId("prompt-input");
  await expect(input).toBeEnabled();
  await input.fill("/e2e:echo never to be sent");
  await input.press("Enter");
  const queued = page.getByTestId("queued-prompt");
  await expect(queued).toHaveCount(1);
  await expect(input).toHaveValue("");
  await expect(input).toBeEnabled();
  await input.fill("/e2e:echo answered right away");
  await page.getByTestId("prompt-submit").click();

  await expect(queued).toHaveCount(2);
  await expect(queued.nth(0)).toContainText("Queued");
  await expect(queued.nth(0)).toContainText("/e2e:echo never to be sent");
  await expect(queued.nth(1)).toContainText("/e2e:echo answered right away");
  await expect(input).toHaveValue("");
  // Still running: nothing queued has reached the transcript.
  const list = page.getByTestId("message-list");
  await expect(list.locator('[data-author="user"]')).toHaveCount(1);

  await queued.filter({ hasText: "never to be sent" }).getByTestId("queued-prompt-cancel").click();
  await expect(queued).toHaveCount(1);

  await queued.filter({ hasText: "answered right away" }).getByTestId("queued-prompt-send-now").click();
  await expect(queued).toHaveCount(0);
  await expect(list.locator('[data-author="agent"][data-type="status"]').filter({ hasText: "Turn cancelled" })).toBeVisible();
  await expect(list.locator('[data-author="user"]').last()).toContainText("/e2e:echo answered right away");
  await expect(list.locator('[data-author="agent"][data-type="text"]').last()).toContainText("answered right away");
  await expect(head.getByTestId("task-state-turn-finished").first()).toBeVisible();
  await expect(list).not.toContainText("never to be sent");
});
