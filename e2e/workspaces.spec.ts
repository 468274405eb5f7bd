import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TaskSchema, type Repository } from "@kandev/protocol";
import { expect, test } from "./fixtures";
import { openBoard, openTask, saveScreenshot } from "./helpers";
import type { Page } from "@playwright/test";

// Several agent turns, git work and page loads per test: more than the suite's default minute.
test.setTimeout(180_000);

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

/** Opens the Changes tab (clicked again until it is selected: the first click may land before hydration). */
async function openChanges(page: Page): Promise<void> {
  await expect(async () => {
    await page.getByTestId("changes-tab").click();
    await expect(page.getByTestId("changes-tab")).toHaveAttribute("aria-selected", "true", { timeout: 1000 });
  }).toPass();
}

/** A throwaway repository on main with its own identity (a fresh machine has no global one). */
function makeRepo(name: string): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kandev-e2e-repo-")), name);
  fs.mkdirSync(dir);
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.name", "E2E");
  git(dir, "config", "user.email", "e2e@example.com");
  fs.writeFileSync(path.join(dir, "README.md"), "# Demo\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "initial");
  return fs.realpathSync(dir);
}

test("a task on a repository: the Changes tab fills in, a line comment goes back as a review, and the merge lands on main", async ({
  page,
  request,
}) => {
  const repo = makeRepo("demo app");

  // Settings: register the repository by its path and see its branches.
  await page.goto("/settings");
  await page.getByTestId("repository-path").fill(repo);
  await page.getByTestId("repository-add").click();
  const row = page.getByTestId("repository-row").filter({ hasText: repo });
  await expect(row).toContainText("demo app");
  await row.getByTestId("repository-branches").click();
  await expect(row.getByTestId("repository-branch-list")).toContainText("main");
  await saveScreenshot(page, "settings-repositories");

  // Create the task in the dialog, on that repository and its default branch.
  await openBoard(page);
  await page.getByTestId("create-task-button").click();
  await page.getByTestId("create-task-title").fill("Write notes");
  await page.getByTestId("create-task-prompt").fill("/e2e:echo starting");
  await page.getByTestId("create-task-repository").selectOption({ label: "demo app" });
  await expect(page.getByTestId("create-task-base-branch")).toHaveValue("main");
  await page.getByTestId("create-task-submit").click();
  await page.waitForURL(/\/tasks\/[^/]+$/);
  const taskId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  await expect(page.getByTestId("task-page")).toHaveAttribute("data-live", "true");
  await expect(page.getByTestId("task-branch")).toContainText("kandev/write-notes-");
  await expect(page.getByTestId("prompt-input")).toBeEnabled();

  // The Changes tab starts empty and fills in live when the agent edits a file.
  await openChanges(page);
  await expect(page.getByTestId("changes-panel")).toBeVisible();
  await expect(page.getByTestId("changes-file")).toHaveCount(0);
  await page.getByTestId("prompt-input").fill("/e2e:edit-file notes.md alpha\\nbeta\\ngamma");
  await page.getByTestId("prompt-submit").click();
  const file = page.getByTestId("changes-file").filter({ hasText: "notes.md" });
  await expect(file).toContainText("+3");
  const diff = page.locator('[data-testid="file-diff"][data-path="notes.md"]');
  await expect(diff).toContainText("beta");
  await saveScreenshot(page, "task-changes-diff");

  // Comment on line 2 through the diff's own line widget; the comment survives a reload.
  await page.getByTestId("diff-mode-split").click();
  await page.getByTestId("diff-mode-unified").click();
  const line = diff
    .locator("tr")
    .filter({ has: page.locator('[data-line-new-num="2"]') })
    .first();
  await line.hover();
  await line.locator(".diff-add-widget").click();
  await page.getByTestId("review-comment-input").fill("Say it in capitals");
  await page.getByTestId("review-comment-save").click();
  await expect(diff.getByTestId("review-comment")).toContainText("Say it in capitals");
  await openTask(page, taskId);
  await openChanges(page);
  await expect(page.getByTestId("review-comment")).toContainText("Say it in capitals");

  // Send review: one prompt quoting path:line and the line.
  await expect(page.getByTestId("send-review")).toBeEnabled();
  await page.getByTestId("send-review").click();
  await expect(page.getByTestId("review-comment")).toHaveCount(0);
  await page.getByTestId("conversation-tab").click();
  const list = page.getByTestId("message-list");
  await expect(list.locator('[data-author="user"]').last()).toContainText("notes.md:2");
  await expect(list.locator('[data-author="user"]').last()).toContainText("> beta");
  await expect(list.locator('[data-author="user"]').last()).toContainText("Say it in capitals");
  await expect(page.getByTestId("prompt-input")).toBeEnabled();

  // Merge: main holds the change, the user's checkout moved with it and is clean.
  await page.getByTestId("merge-button").click();
  await expect(page.getByTestId("merge-result")).toContainText("main");
  await saveScreenshot(page, "task-merged");
  expect(git(repo, "show", "main:notes.md")).toBe("alpha\nbeta\ngamma");
  expect(fs.readFileSync(path.join(repo, "notes.md"), "utf8")).toBe("alpha\nbeta\ngamma\n");
  expect(git(repo, "status", "--porcelain")).toBe("");
  await expect(page.getByTestId("task-page").getByTestId("task-state-completed").first()).toBeVisible();
  const task = TaskSchema.parse(await (await request.get(`/api/v1/tasks/${taskId}`)).json());
  expect(task.state).toBe("COMPLETED");
});

test("two tasks on one repository run in parallel, each on its own branch and worktree", async ({ page, request }) => {
  const repo = makeRepo("parallel");
  const added = await request.post("/api/v1/repositories", { data: { path: repo } });
  expect(added.status()).toBe(201);
  const r = (await added.json()) as Repository;
  const create = async (file: string) => {
    const res = await request.post("/api/v1/tasks", {
      data: { title: "Parallel work", prompt: `/e2e:edit-file ${file} from ${file}`, repository_id: r.id },
    });
    expect(res.status()).toBe(201);
    return TaskSchema.parse(((await res.json()) as { task: unknown }).task);
  };
  const [one, two] = await Promise.all([create("one.txt"), create("two.txt")]);
  expect(one.workspace?.branch).not.toBe(two.workspace?.branch);

  await openBoard(page);
  await expect(page.getByTestId(`task-row-${one.id}`).getByTestId("task-row-branch")).toHaveText(one.workspace?.branch ?? "");
  await expect(page.getByTestId(`task-row-${two.id}`).getByTestId("task-row-branch")).toHaveText(two.workspace?.branch ?? "");

  for (const [task, mine, theirs] of [
    [one, "one.txt", "two.txt"],
    [two, "two.txt", "one.txt"],
  ] as const) {
    await openTask(page, task.id);
    await openChanges(page);
    await expect(page.getByTestId("changes-file").filter({ hasText: mine })).toBeVisible();
    await expect(page.getByTestId("changes-file").filter({ hasText: theirs })).toHaveCount(0);
  }
  expect(fs.existsSync(path.join(repo, "one.txt")) || fs.existsSync(path.join(repo, "two.txt"))).toBe(false);
});

test("a task is deleted from its page after a confirmation; its branch stays in the repository", async ({ page, request }) => {
  const repo = makeRepo("deletable");
  const added = await request.post("/api/v1/repositories", { data: { path: repo } });
  expect(added.status()).toBe(201);
  const r = (await added.json()) as Repository;
  const res = await request.post("/api/v1/tasks", { data: { title: "Throwaway", prompt: "/e2e:echo hi", repository_id: r.id } });
  expect(res.status()).toBe(201);
  const task = TaskSchema.parse(((await res.json()) as { task: unknown }).task);

  await openTask(page, task.id);
  await page.getByTestId("delete-task").click();
  await expect(page.getByTestId("delete-task-question")).toContainText(task.workspace?.branch ?? "");
  await page.getByTestId("delete-task-cancel").click();
  await expect(page.getByTestId("delete-task-confirm")).toHaveCount(0);
  expect((await request.get(`/api/v1/tasks/${task.id}`)).status()).toBe(200);

  await page.getByTestId("delete-task").click();
  await page.getByTestId("delete-task-confirm").click();
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByTestId(`task-row-${task.id}`)).toHaveCount(0);
  expect((await request.get(`/api/v1/tasks/${task.id}`)).status()).toBe(404);
  expect(git(repo, "branch", "--list", task.workspace?.branch ?? "")).toContain(task.workspace?.branch ?? "");
});
