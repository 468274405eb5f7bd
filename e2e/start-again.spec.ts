import path from "node:path";
import { expect, test } from "./fixtures";
import { createTaskViaApi, openTask, saveScreenshot } from "./helpers";

test("an agent that crashes mid-session leaves Start again; the task runs again and the crashed session's transcript stays readable", async ({
  page,
  request,
  tempDir,
}) => {
  const marker = path.join(tempDir, "crashed");
  const { task, session } = await createTaskViaApi(request, { title: "Crashes once", prompt: "/e2e:echo first turn done" });
  await openTask(page, task.id);
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "idle");
  await page.getByTestId("prompt-input").fill(`/e2e:crash-once ${marker}`);
  await page.getByTestId("prompt-submit").click();

  // The agent process died mid-turn: the page says so and offers Start again.
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "closed");
  await expect(page.getByTestId("message-list").locator('[data-type="error"]')).toContainText("The agent exited unexpectedly (code 3).");
  await expect(page.getByTestId("restart-task")).toBeVisible();
  await expect(page.getByTestId("earlier-session")).toHaveCount(0);
  await saveScreenshot(page, "task-start-again-after-crash");

  await page.getByTestId("restart-task").click();
  await expect(page.getByTestId("message-list")).toContainText("running again after the crash");
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "idle");
  await expect(page.getByTestId("restart-task")).toHaveCount(0);
  const latest = (await (await request.get(`/api/v1/tasks/${task.id}`)).json()) as { session_id: string };
  expect(latest.session_id).not.toBe(session.id);

  // The crashed session is folded away above the new one, its transcript there when opened.
  const earlier = page.getByTestId("earlier-session");
  await expect(earlier).toHaveCount(1);
  await expect(earlier).toHaveAttribute("data-session-id", session.id);
  await expect(page.getByTestId("message-list")).not.toContainText("first turn done");
  await earlier.locator("summary").click();
  await expect(earlier.getByTestId("earlier-session-messages")).toContainText("first turn done");
  await expect(earlier.getByTestId("earlier-session-messages")).toContainText("The agent exited unexpectedly");
  await saveScreenshot(page, "task-earlier-session");

  // In German, the failure the board reported in English is said in German (its code, not its text).
  await page.goto(`/tasks/${task.id}?lang=de`);
  await expect(page.getByTestId("task-page")).toHaveAttribute("data-live", "true");
  await page.getByTestId("earlier-session").locator("summary").click();
  await expect(page.getByTestId("earlier-session-messages")).toContainText("Der Agent hat sich unerwartet beendet (Code 3).");
});
