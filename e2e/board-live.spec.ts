import { expect, test } from "./fixtures";
import { createTaskViaApi, expectNotReloaded, markNoReload, openBoard } from "./helpers";

test("a task created over REST appears on an open board without a reload", async ({ page }) => {
  await openBoard(page);
  await markNoReload(page);

  const { task } = await createTaskViaApi(page.request, { title: "Made by automation", prompt: "/e2e:echo from the API" });

  const row = page.getByTestId(`task-row-${task.id}`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("Made by automation");
  await expect(row).toHaveAttribute("href", `/tasks/${task.id}`);
  await expect(row.getByTestId("task-state-turn-finished")).toBeVisible();
  await expectNotReloaded(page);
});
