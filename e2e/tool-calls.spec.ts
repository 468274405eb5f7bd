import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { TaskSchema, type Repository } from "@kandev/protocol";
import { expect, test } from "./fixtures";
import { createTaskViaApi, openTask, saveScreenshot } from "./helpers";

// An agent turn and page loads, plus git work in the second test: more than the default minute under load.
test.setTimeout(120_000);

test("a tool call shows its status, files, diffs (old and new lines), output and folded raw input", async ({ page }) => {
  const { task } = await createTaskViaApi(page.request, { title: "Tool details", prompt: "/e2e:tool-details" });
  await openTask(page, task.id);

  const card = page.getByTestId("message-list").locator('[data-type="tool_call"]');
  await expect(card.locator(".tool-call")).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
  await expect(card.getByTestId("tool-call-status")).toHaveText("Done");
  await expect(card.locator(".tool-call")).toHaveAttribute("data-tool-kind", "edit");
  await expect(card.getByTestId("tool-call-location").first()).toHaveText(/src\/greet\.ts:1$/);

  const diffs = card.getByTestId("tool-call-diff");
  await expect(diffs).toHaveCount(2);
  const edit = diffs.nth(0);
  await expect(edit).toHaveAttribute("data-new-file", "false");
  await expect(edit.locator('[data-kind="del"]')).toHaveCount(1);
  await expect(edit.locator('[data-kind="del"]')).toContainText('export const greet = () => "hello";');
  await expect(edit.locator('[data-kind="add"]')).toContainText('export const greet = () => "hello, world";');
  await expect(edit.locator('[data-kind="same"]')).toContainText("export const n = 1;");
  const created = diffs.nth(1);
  await expect(created).toHaveAttribute("data-new-file", "true");
  await expect(created.locator('[data-kind="add"]')).toContainText("export const added = true;");
  await expect(created.locator('[data-kind="del"]')).toHaveCount(0);

  await expect(card.getByTestId("tool-call-output")).toContainText("Updated 1 file, created 1 file.");
  await expect(card.getByTestId("tool-call-terminal")).toContainText("mock-term-1");

  // Raw input starts folded; opening it shows the agent's JSON.
  const raw = card.getByTestId("tool-call-raw-input");
  await expect(raw).not.toHaveAttribute("open", "");
  await expect(raw.locator("pre")).toBeHidden();
  await raw.locator("summary").click();
  await expect(raw.locator("pre")).toBeVisible();
  await expect(raw.locator("pre")).toContainText('"old_string"');
  await saveScreenshot(card, "tool-call-card");
});

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

function makeRepo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-e2e-toolcall-"));
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.name", "E2E");
  git(dir, "config", "user.email", "e2e@example.com");
  fs.writeFileSync(path.join(dir, "README.md"), "# Demo\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "initial");
  return fs.realpathSync(dir);
}

/** A task on a fresh repository whose agent edits docs/notes.md, opened once its tool call has completed. */
async function openEditedTask(page: Page, request: APIRequestContext, title: string) {
  const added = await request.post("/api/v1/repositories", { data: { path: makeRepo() } });
  expect(added.status()).toBe(201);
  const repo = (await added.json()) as Repository;
  const res = await request.post("/api/v1/tasks", {
    data: { title, prompt: "/e2e:edit-file docs/notes.md first line", repository_id: repo.id },
  });
  expect(res.status()).toBe(201);
  const task = TaskSchema.parse(((await res.json()) as { task: unknown }).task);
  await openTask(page, task.id);
  const card = page.getByTestId("message-list").locator('[data-type="tool_call"]');
  await expect(card.locator(".tool-call")).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
  return card;
}

test("on a task with a workspace, a tool call's file opens that file in the Changes view", async ({ page, request }) => {
  const card = await openEditedTask(page, request, "Edit with a link");
  const location = card.getByTestId("tool-call-location").first();
  await expect(location).toHaveText("docs/notes.md");
  await location.click();
  await expect(page.getByTestId("changes-tab")).toHaveAttribute("aria-selected", "true");
  await expect(page.locator('[data-testid="file-diff"][data-path="docs/notes.md"]')).toBeVisible();
});

test("when the diff viewer's code cannot be loaded (a tab left open across a rebuild), the Changes view says so and the page stays", async ({
  page,
  request,
}) => {
  await openEditedTask(page, request, "Viewer gone");
  // The page's own script has loaded; the viewer's, fetched on demand, is gone from here on.
  await page.route("**/_next/static/**", (route) => route.abort());
  await page.getByTestId("changes-tab").click();
  await expect(page.getByTestId("diff-unavailable")).toContainText("The diff viewer could not be loaded");
  await expect(page.getByTestId("task-page")).toBeVisible();
  await expect(page.getByTestId("file-diff")).toHaveCount(0);
});
