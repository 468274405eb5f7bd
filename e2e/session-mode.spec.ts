import { expect, test } from "./fixtures";
import { createTaskViaApi, openTask } from "./helpers";
import { statefulProfile } from "./session-state";

test("the mode switcher changes the agent's mode, says who did, shows the agent's refusal, and follows the agent's own switch", async ({ page }) => {
  const profileId = await statefulProfile(page.request);
  const { task } = await createTaskViaApi(page.request, { title: "Modes", prompt: "/e2e:plain", agent_profile_id: profileId });
  await openTask(page, task.id);
  const list = page.getByTestId("message-list");
  await expect(list.locator('[data-author="agent"][data-type="text"]')).toContainText("ok");
  const mode = page.getByTestId("session-mode");
  await expect(mode).toHaveValue("default");
  await expect(mode).toBeEnabled();

  await mode.selectOption({ label: "Plan" });
  await expect(mode).toHaveValue("plan");
  await expect(list.locator('[data-type="status"]').filter({ hasText: "Mode: Plan (set by local)" })).toBeVisible();

  await mode.selectOption("broken");
  await expect(page.getByTestId("session-mode-error")).toContainText("The agent refused");
  await expect(page.getByTestId("session-mode-error")).toContainText("refuses mode broken");
  await expect(mode).toHaveValue("plan");

  await mode.selectOption({ label: "Ask" });
  await expect(mode).toHaveValue("default");
  const input = page.getByTestId("prompt-input");
  await input.fill("/e2e:session-state switch");
  await input.press("Enter");
  await expect(mode).toHaveValue("plan");
  await expect(list.locator('[data-type="status"]').filter({ hasText: "Mode: Plan (the agent switched)" })).toBeVisible();
});
