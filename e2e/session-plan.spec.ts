import { expect, test } from "./fixtures";
import { createTaskViaApi, openTask, saveScreenshot } from "./helpers";

test.setTimeout(120_000);

test("the agent's plan is pinned as a checklist and updates in place", async ({ page }) => {
  // `ask` holds the turn on a permission after the first plan, so the first state can be seen for sure.
  const { task } = await createTaskViaApi(page.request, { title: "Plan it", prompt: "/e2e:plan ask" });
  await openTask(page, task.id);

  const plan = page.getByTestId("session-plan");
  const entries = plan.getByTestId("session-plan-entry");
  await expect(entries).toHaveCount(3, { timeout: 30_000 });
  await expect(entries.nth(0)).toContainText("Read the code");
  await expect(entries.nth(0)).toHaveAttribute("data-status", "in_progress");
  await expect(entries.nth(1)).toHaveAttribute("data-status", "pending");
  await expect(plan.getByTestId("session-plan-progress")).toHaveText("0 of 3 done");
  const messageId = await plan.getAttribute("data-message-id");

  await page.getByTestId("message-list").locator('[data-type="permission_request"]').getByTestId("permission-option-allow-once").click();

  await expect(plan.getByTestId("session-plan-progress")).toHaveText("3 of 3 done", { timeout: 30_000 });
  for (let i = 0; i < 3; i++) await expect(entries.nth(i)).toHaveAttribute("data-status", "completed");
  // Still one plan, the same message updated in place: one pinned list, one line in the transcript.
  await expect(page.getByTestId("session-plan")).toHaveCount(1);
  await expect(plan).toHaveAttribute("data-message-id", messageId ?? "");
  await expect(page.getByTestId("plan-message")).toHaveCount(1);
  await expect(page.getByTestId("plan-message")).toHaveText("Plan: 3 of 3 done");
  await saveScreenshot(page, "session-plan");
  // It folds away and opens again.
  await plan.locator("summary").click();
  await expect(entries.first()).toBeHidden();
  await plan.locator("summary").click();
  await expect(entries.first()).toBeVisible();
});

test("a plan older than the loaded transcript pages is still pinned, from the board's answer", async ({ page }) => {
  const { task, session } = await createTaskViaApi(page.request, { title: "Plan, then a long turn", prompt: "/e2e:plan" });
  // A second turn of more messages than one page (100): the plan message falls out of the newest page.
  const steps = 150;
  const queued = await page.request.post(`/api/v1/sessions/${session.id}/prompt`, { data: { text: `/e2e:steps ${steps}` } });
  expect(queued.ok(), await queued.text()).toBe(true);
  await expect
    .poll(async () => (await page.request.get(`/api/v1/tasks/${task.id}`).then((r) => r.json())).turn_active, { timeout: 30_000 })
    .toBe(false);
  const newestPage = await page.request.get(`/api/v1/sessions/${session.id}/messages?limit=100`).then((r) => r.json());
  expect(JSON.stringify(newestPage)).toContain(`Done with ${steps} steps.`);
  expect((newestPage as { type: string }[]).some((m) => m.type === "plan")).toBe(false);

  await openTask(page, task.id);
  await expect(page.getByTestId("message-list").getByText(`Done with ${steps} steps.`)).toBeVisible();
  await expect(page.getByTestId("plan-message")).toHaveCount(0);
  const plan = page.getByTestId("session-plan");
  await expect(plan.getByTestId("session-plan-progress")).toHaveText("3 of 3 done");
  await expect(plan.getByTestId("session-plan-entry")).toHaveCount(3);
});
