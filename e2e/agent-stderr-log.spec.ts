import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { AgentProfileSchema } from "@kandev/protocol";
import { createTaskViaApi, openTask } from "./helpers";

const CRASH_LINE = "mock-agent: crashing on purpose";

test("the agent log panel shows a crashed agent's stderr", async ({ page }) => {
  const { task } = await createTaskViaApi(page.request, { title: "Crash with a log", prompt: "/e2e:crash" });
  await openTask(page, task.id);
  await expect(page.getByTestId("task-page").getByTestId("task-state-failed").first()).toBeVisible();

  const toggle = page.getByTestId("agent-log-toggle");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByTestId("agent-log")).toHaveCount(0);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByTestId("agent-log")).toContainText(CRASH_LINE);
  await toggle.click();
  await expect(page.getByTestId("agent-log")).toHaveCount(0);
});

test("new stderr lines arrive live in the open panel, with the profile's secret redacted", async ({ page, tempDir }) => {
  const secret = "sk-e2e-never-shown-98765";
  const trigger = path.join(tempDir, "go");
  // An "agent" that logs one line at once and more once the test says so (the trigger file); it
  // never answers ACP initialize, so the session stays starting until the test cancels it.
  const script = [
    "const fs = require('fs');",
    "process.stderr.write('agent booting\\n');",
    `const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(trigger)})) { clearInterval(t); process.stderr.write('using key ' + process.env.MY_API_KEY + '\\n'); } }, 20);`,
    "setInterval(() => {}, 1000);",
  ].join("\n");
  const res = await page.request.post("/api/v1/agent-profiles", {
    data: { name: "Chatty stderr", command: [process.execPath, "-e", script], env: { MY_API_KEY: secret } },
  });
  expect(res.status(), await res.text()).toBe(201);
  const profile = AgentProfileSchema.parse(await res.json());
  const { task, session } = await createTaskViaApi(page.request, { title: "Live log", prompt: "hello", agent_profile_id: profile.id });
  try {
    await openTask(page, task.id);
    await page.getByTestId("agent-log-toggle").click();
    const log = page.getByTestId("agent-log");
    await expect(log).toContainText("agent booting");
    fs.writeFileSync(trigger, "");
    await expect(log).toContainText("using key [redacted]");
    await expect(log).not.toContainText(secret);
    await expect(page.getByTestId("agent-log-toggle")).toContainText("2 lines");
  } finally {
    await page.request.post(`/api/v1/sessions/${session.id}/cancel`, { data: {} });
  }
});
