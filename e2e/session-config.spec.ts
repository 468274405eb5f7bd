import { expect, test } from "./fixtures";
import { createTaskViaApi, openTask } from "./helpers";
import { statefulProfile } from "./session-state";

test("the model selector sets the agent's model, keeps it over a reload, and shows the agent's refusal", async ({ page }) => {
  const profileId = await statefulProfile(page.request);
  const { task, session } = await createTaskViaApi(page.request, { title: "Model", prompt: "/e2e:plain", agent_profile_id: profileId });
  await openTask(page, task.id);
  await expect(page.getByTestId("message-list").locator('[data-author="agent"][data-type="text"]')).toContainText("ok");
  const model = page.getByTestId("session-config-model");
  await expect(model).toHaveValue("mock-fast");
  await expect(model).toBeEnabled();

  await model.selectOption({ label: "Mock Smart" });
  await expect(model).toHaveValue("mock-smart");
  const stored = await (await page.request.get(`/api/v1/sessions/${session.id}`)).json();
  expect(stored.config_options[0].current_value).toBe("mock-smart");
  await page.reload();
  await expect(page.getByTestId("session-config-model")).toHaveValue("mock-smart");

  await page.getByTestId("session-config-model").selectOption("mock-broken");
  await expect(page.getByTestId("session-config-error")).toContainText("refuses model mock-broken");
  await expect(page.getByTestId("session-config-model")).toHaveValue("mock-smart");
});

test("context used, cost and the agent's title show on the task page and the card", async ({ page }) => {
  const profileId = await statefulProfile(page.request);
  const { task } = await createTaskViaApi(page.request, { title: "Usage", prompt: "/e2e:session-state", agent_profile_id: profileId });
  await openTask(page, task.id);
  const usage = page.getByTestId("session-usage");
  await expect(usage).toContainText("42k / 200k");
  await expect(usage).toContainText("$0.42");
  await expect(page.getByTestId("session-title")).toContainText("Mock session title");
  await page.goto("/");
  const card = page.getByTestId(`task-row-${task.id}`);
  await expect(card.getByTestId("task-card-usage")).toContainText("42k / 200k");
  await expect(card.getByTestId("task-card-usage")).toContainText("$0.42");
});
