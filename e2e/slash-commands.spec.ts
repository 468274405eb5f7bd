import { expect, test } from "./fixtures";
import { createTaskViaApi, openTask } from "./helpers";
import { statefulProfile } from "./session-state";

test("typing / offers the agent's commands: arrows and Enter choose, Tab completes, Escape closes, and the prompt is sent as typed", async ({
  page,
}) => {
  const profileId = await statefulProfile(page.request);
  const { task } = await createTaskViaApi(page.request, { title: "Commands", prompt: "/e2e:plain", agent_profile_id: profileId });
  await openTask(page, task.id);
  const list = page.getByTestId("message-list");
  await expect(list.locator('[data-author="agent"][data-type="text"]')).toContainText("ok");
  const input = page.getByTestId("prompt-input");
  await expect(input).toBeEnabled();

  await input.fill("/");
  const commands = page.getByTestId("slash-commands");
  await expect(commands.getByRole("option")).toHaveText([/\/review/, /\/compact/, /\/plan-next/]);
  await expect(page.getByTestId("slash-command-review")).toContainText("[path]");
  await expect(page.getByTestId("slash-command-review")).toContainText("Review the changes so far");
  await expect(page.getByTestId("slash-command-review")).toHaveAttribute("aria-selected", "true");

  await input.press("ArrowDown");
  await expect(page.getByTestId("slash-command-compact")).toHaveAttribute("aria-selected", "true");
  await input.press("Enter");
  await expect(input).toHaveValue("/compact ");
  await expect(commands).toHaveCount(0);

  await input.fill("/pl");
  await expect(commands.getByRole("option")).toHaveText([/\/plan-next/]);
  await input.press("Escape");
  await expect(commands).toHaveCount(0);
  await expect(input).toHaveValue("/pl");

  await input.fill("/re");
  await input.press("Tab");
  await expect(input).toHaveValue("/review ");
  await input.pressSequentially("src/app.ts");
  await input.press("Enter");
  await expect(list.locator('[data-author="user"]').last()).toContainText("/review src/app.ts");
  await expect(list.locator('[data-author="agent"][data-type="text"]').last()).toContainText("Mock agent received: /review src/app.ts");
});
