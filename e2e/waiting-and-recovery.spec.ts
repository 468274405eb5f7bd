import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { createTaskViaApi, openBoard, openTask, saveScreenshot } from "./helpers";

test("a task waiting for a permission decision sits in the Waiting for input column with its own icon", async ({ page, request }) => {
  await openBoard(page);
  const { task } = await createTaskViaApi(request, { title: "Needs permission", prompt: "/e2e:permission Delete build/" });
  const waiting = page.getByTestId("column-waiting");
  const row = waiting.getByTestId(`task-row-${task.id}`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("task-state-waiting-for-permission")).toBeVisible();
  await expect(page.getByTestId("column-inProgress").getByTestId(`task-row-${task.id}`)).toHaveCount(0);
  // The tab title counts it like a question.
  await expect(page).toHaveTitle(/^\(1\) /);
  await saveScreenshot(page, "board-waiting-for-permission");
  await openTask(page, task.id);
  await expect(page).not.toHaveTitle(/^\(\d+\) /);
});

test("Stop while the agent is starting asks first, and Start again runs the task", async ({ page, request, tempDir }) => {
  const gate = path.join(tempDir, "start-gate");
  const profiles = (await (await request.get("/api/v1/agent-profiles")).json()) as Array<{ id: string; command: string[] }>;
  const mock = profiles.find((p) => p.id === "mock")!;
  const created = await request.post("/api/v1/agent-profiles", {
    data: { name: "Gated mock", command: mock.command, env: { MOCK_AGENT_START_GATE: gate } },
  });
  expect(created.status()).toBe(201);
  const profile = (await created.json()) as { id: string };
  const { task } = await createTaskViaApi(request, { title: "Slow start", prompt: "/e2e:echo started at last", agent_profile_id: profile.id });
  await openTask(page, task.id);
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "running");
  await page.getByTestId("cancel-turn").click();
  await expect(page.getByTestId("cancel-start-confirm")).toContainText("still starting");
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "running");
  await page.getByTestId("cancel-start-yes").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "closed");
  fs.writeFileSync(gate, "open");
  await page.getByTestId("restart-task").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "idle");
  await expect(page.getByTestId("restart-task")).toHaveCount(0);
  await expect(page.getByTestId("message-list")).toContainText("started at last");
});
