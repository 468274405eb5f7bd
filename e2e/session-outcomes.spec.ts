import { expect, test } from "./fixtures";
import { MessageSchema } from "@kandev/protocol";
import { createTaskViaApi, openBoard, openTask } from "./helpers";

const CRASH_LINE = "mock-agent: crashing on purpose";

test("a crashing agent shows the failed state and its stderr in an error message", async ({ page }) => {
  const { task } = await createTaskViaApi(page.request, { title: "Crash on purpose", prompt: "/e2e:crash" });
  await openTask(page, task.id);

  await expect(page.getByTestId("task-page").getByTestId("task-state-failed").first()).toBeVisible();
  // The turn's own error may come first; the one that tells why the agent died carries its stderr.
  const errors = page.getByTestId("message-list").locator('[data-author="agent"][data-type="error"]');
  await expect(errors.filter({ hasText: CRASH_LINE }).first()).toBeVisible();
  await expect(page.getByTestId("prompt-input")).toBeDisabled();

  await openBoard(page);
  await expect(page.getByTestId(`task-row-${task.id}`).getByTestId("task-state-failed")).toBeVisible();
  await expect(page.getByTestId("column-done").getByTestId(`task-row-${task.id}`)).toBeVisible();
});

test("Cancel stops a running turn: the stream ends and the task leaves running", async ({ page }) => {
  // 600 ticks (60 s): the turn still runs when a loaded machine has opened the page.
  const { task, session } = await createTaskViaApi(page.request, { title: "Slow stream", prompt: "/e2e:slow 600" });
  await openTask(page, task.id);

  const agentText = page.getByTestId("message-list").locator('[data-author="agent"][data-type="text"]').first();
  await expect(agentText).toContainText("tick 2");
  const head = page.getByTestId("task-page");
  await expect(head.getByTestId("task-state-running").first()).toBeVisible();
  // What is typed now waits for the turn to end (queued-prompts.spec.ts).
  await expect(page.getByTestId("prompt-input")).toBeEnabled();

  await page.getByTestId("cancel-turn").click();

  await expect(head.getByTestId("task-state-running")).toHaveCount(0);
  await expect(page.getByTestId("cancel-turn")).toHaveCount(0);
  await expect(page.getByTestId("message-list").locator('[data-type="status"]').last()).toBeVisible();
  await expect(page.getByTestId("prompt-input")).toBeEnabled();

  // The stream really stopped: the slow scenario would reach tick 600, and what the page shows is
  // exactly what the server kept once the turn ended.
  const shown = (await agentText.locator(".bubble__text").textContent()) ?? "";
  expect(shown).not.toContain("tick 600");
  const res = await page.request.get(`/api/v1/sessions/${session.id}/messages`);
  const stored = MessageSchema.array().parse(await res.json());
  const storedText = stored.find((m) => m.author_type === "agent" && m.type === "text");
  // Markdown drops a paragraph's trailing space ("tick 35 "); every other character is the same.
  expect(shown).toBe(storedText?.content.trimEnd());
});
