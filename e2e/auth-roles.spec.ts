import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { request as playwrightRequest, type Page } from "@playwright/test";
import { AgentProfileSchema, TaskSchema } from "@kandev/protocol";
import { ADMIN, apiAs, signIn, signOut, startAuthBoard } from "./auth";
import type { StartedBoard } from "./board";
import { expect, test } from "./fixtures";

// Issue 34, item 2 and 3: only admins decide what runs on the host, and the web app hides those
// controls from an operator; what a person answered says who answered it.

const mockCli = path.resolve(__dirname, "..", "packages", "mock-agent", "dist", "cli.js");
const BOB = { username: "bob", password: "bob-password-1" };
const CAROL = { username: "carol", password: "carol-password-1" };

let board: StartedBoard;
test.beforeAll(async () => {
  board = await startAuthBoard();
  const admin = await apiAs(board.url, ADMIN, true);
  const res = await admin.post("/api/v1/users", { data: { ...BOB, role: "operator" } });
  expect(res.status(), await res.text()).toBe(201);
  await admin.dispose();
});
test.afterAll(async () => {
  await board?.stop();
});

test("the admin adds an operator in Settings; the operator sees no agent-profile form, repository or flag controls, nor Users; the admin does", async ({
  page,
}) => {
  await signIn(page, board.url, ADMIN);
  await page.getByTestId("nav-settings").click();
  await expect(page.getByTestId("settings-users")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("add-profile-form")).toBeVisible();
  await expect(page.getByTestId("repository-add")).toBeVisible();
  await expect(page.getByTestId("settings-tokens")).toBeVisible();
  await expect(page.getByTestId("settings-account")).toBeVisible();

  await page.getByTestId("user-add-username").fill(CAROL.username);
  await page.getByTestId("user-add-password").fill(CAROL.password);
  await page.getByTestId("user-add-role").selectOption("operator");
  await page.getByTestId("user-add-submit").click();
  await expect(page.getByTestId(`user-role-${CAROL.username}`)).toHaveText("Operator");

  await signOut(page);
  await signIn(page, board.url, CAROL);
  await page.getByTestId("nav-settings").click();
  await expect(page.getByTestId("settings-profiles")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("settings-account")).toBeVisible();
  await expect(page.getByTestId("settings-tokens")).toBeVisible();
  await expect(page.getByTestId("add-profile-form")).toHaveCount(0);
  await expect(page.getByTestId("settings-users")).toHaveCount(0);
  await expect(page.getByTestId("repository-add")).toHaveCount(0);
  await expect(page.getByTestId("settings-flags").locator("[data-testid^='flag-on-']")).toHaveCount(0);
  // What the page hides, the board refuses.
  const refused = await page.request.post(`${board.url}/api/v1/agent-profiles`, { data: { name: "sneaky", command: ["/bin/true"] } });
  expect(refused.status()).toBe(403);
});

test("an operator creates a token (shown once), sees it listed and revokes it", async ({ page }) => {
  await signIn(page, board.url, BOB);
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("token-name").fill("ci");
  await page.getByTestId("token-create").click();
  const value = await page.getByTestId("token-value").textContent();
  expect(value?.length ?? 0).toBeGreaterThan(10);
  await expect(page.getByTestId("token-ci")).toBeVisible();
  const viaToken = await page.request.get(`${board.url}/api/v1/auth/me`, { headers: { Authorization: `Bearer ${value}` } });
  expect(await viaToken.json()).toMatchObject({ username: BOB.username });
  await page.getByTestId("token-revoke-ci").click();
  await expect(page.getByTestId("token-ci")).toHaveCount(0);
  // The token's secret is not shown again after a reload.
  await page.reload();
  await expect(page.getByTestId("settings-tokens")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("token-value")).toHaveCount(0);
});

/** The admin registers the mock agent (operators may not); the operator then starts a task on it and opens it. */
async function operatorTask(page: Page, title: string, prompt: string, repositoryId?: string): Promise<string> {
  const admin = await apiAs(board.url, ADMIN);
  const created = await admin.post("/api/v1/agent-profiles", { data: { name: `Mock agent for ${title}`, command: [process.execPath, mockCli] } });
  expect(created.status(), await created.text()).toBe(201);
  const profile = AgentProfileSchema.parse(await created.json());
  await admin.dispose();

  await signIn(page, board.url, BOB);
  const res = await page.request.post(`${board.url}/api/v1/tasks`, {
    data: { title, prompt, agent_profile_id: profile.id, ...(repositoryId ? { repository_id: repositoryId } : {}) },
  });
  expect(res.status(), await res.text()).toBe(201);
  const task = TaskSchema.parse(((await res.json()) as { task: unknown }).task);
  await page.goto(`${board.url}/tasks/${task.id}`);
  await expect(page.getByTestId("task-page")).toHaveAttribute("data-live", "true", { timeout: 30_000 });
  return task.id;
}

test("a clarification the operator answers says who answered it; their prompt names them as its sender", async ({ page }) => {
  await operatorTask(page, "Ask bob", "/e2e:kandev-question");
  await expect(page.getByTestId("clarification-overlay")).toBeVisible({ timeout: 30_000 });
  await page.getByTestId("clarification-option-database-1").click();
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  await expect(page.getByTestId("clarification-answered-by")).toHaveText(`answered by ${BOB.username}`, { timeout: 30_000 });
  await expect(page.getByTestId("message-sender").first()).toHaveText(BOB.username);
});

test("a permission the operator grants says who approved it", async ({ page }) => {
  await operatorTask(page, "Needs bob's permission", "/e2e:permission Write notes.txt");
  const request = page.getByTestId("message-list").locator('[data-type="permission_request"]');
  await expect(request).toContainText("Write notes.txt", { timeout: 30_000 });
  await request.getByTestId("permission-option-allow-once").click();
  await expect(request.getByTestId("permission-decided-by")).toHaveText(`approved by ${BOB.username}`, { timeout: 30_000 });
});

test("a merge by the operator says who merged it in the Changes view", async ({ page }) => {
  const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
  const repo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kandev-e2e-repo-")), "team");
  fs.mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  git(repo, "config", "user.name", "E2E");
  git(repo, "config", "user.email", "e2e@example.com");
  fs.writeFileSync(path.join(repo, "README.md"), "# Team\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "initial");
  const admin = await apiAs(board.url, ADMIN);
  const added = await admin.post("/api/v1/repositories", { data: { path: fs.realpathSync(repo) } });
  expect(added.status(), await added.text()).toBe(201);
  const repositoryId = ((await added.json()) as { id: string }).id;
  await admin.dispose();

  const taskId = await operatorTask(page, "Bob merges", "/e2e:edit-file notes.md hello", repositoryId);
  await expect
    .poll(async () => TaskSchema.parse(await (await page.request.get(`${board.url}/api/v1/tasks/${taskId}`)).json()).state, { timeout: 30_000 })
    .toBe("REVIEW");
  await expect(async () => {
    await page.getByTestId("changes-tab").click();
    await expect(page.getByTestId("changes-tab")).toHaveAttribute("aria-selected", "true", { timeout: 1000 });
  }).toPass();
  await expect(page.getByTestId("merge-button")).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId("merge-button").click();
  await expect(page.getByTestId("merge-result").getByTestId("merged-by")).toHaveText(`Merged by ${BOB.username}.`, { timeout: 30_000 });
  expect(git(repo, "show", "main:notes.md")).toBe("hello");
});

/** Makes an account through the admin's API client. */
async function makeUser(who: { username: string; password: string }, role: "admin" | "operator"): Promise<void> {
  const admin = await apiAs(board.url, ADMIN);
  const res = await admin.post("/api/v1/users", { data: { ...who, role } });
  expect(res.status(), await res.text()).toBe(201);
  await admin.dispose();
}

/** Whether `who` can sign in, asked on a client of its own. */
async function canSignIn(who: { username: string; password: string }): Promise<boolean> {
  const api = await playwrightRequest.newContext({ baseURL: board.url });
  const res = await api.post("/api/v1/auth/login", { data: who });
  await api.dispose();
  return res.status() === 200;
}

test("Your account: a wrong current password is said without signing out; the right one changes it", async ({ page }) => {
  const erin = { username: "erin", password: "erin-password-1" };
  await makeUser(erin, "operator");
  await signIn(page, board.url, erin);
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("account-current-password").fill("not-my-password");
  await page.getByTestId("account-new-password").fill("erin-password-2");
  await page.getByTestId("account-change-password").click();
  await expect(page.getByTestId("account-password-error")).toHaveText("The current password is wrong.");
  await expect(page.getByTestId("current-user")).toHaveText(erin.username);

  await page.getByTestId("account-current-password").fill(erin.password);
  await page.getByTestId("account-change-password").click();
  await expect(page.getByTestId("account-password-changed")).toHaveText("Password changed.");
  expect(await canSignIn({ username: erin.username, password: "erin-password-2" })).toBe(true);
  expect(await canSignIn(erin)).toBe(false);
});

test("Users: the admin sets another user's password and deletes a user", async ({ page }) => {
  const dave = { username: "dave", password: "dave-password-1" };
  await makeUser(dave, "operator");
  await signIn(page, board.url, ADMIN);
  await page.getByTestId("nav-settings").click();
  await page.getByTestId(`user-password-${dave.username}`).click();
  await page.getByTestId(`user-password-input-${dave.username}`).fill("dave-password-2");
  await page.getByTestId(`user-password-input-${dave.username}`).press("Enter");
  await expect(page.getByTestId(`user-${dave.username}`)).toContainText("Password set.");
  expect(await canSignIn({ username: dave.username, password: "dave-password-2" })).toBe(true);

  await page.getByTestId(`user-delete-${dave.username}`).click();
  await expect(page.getByTestId(`user-${dave.username}`)).toHaveCount(0);
  expect(await canSignIn({ username: dave.username, password: "dave-password-2" })).toBe(false);
  // One cannot delete oneself here.
  await expect(page.getByTestId(`user-delete-${ADMIN.username}`)).toHaveCount(0);
});
