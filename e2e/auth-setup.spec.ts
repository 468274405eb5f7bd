import { HealthSchema } from "@kandev/protocol";
import { startAuthBoard } from "./auth";
import type { StartedBoard } from "./board";
import { expect, test } from "./fixtures";

// Issue 34: a board with auth on and no user yet shows the first-run form; it creates the first
// admin, who lands on the board signed in. With auth off none of this shows (settings.spec and the
// rest run on such boards).

let board: StartedBoard;
test.beforeAll(async () => {
  board = await startAuthBoard();
});
test.afterAll(async () => {
  await board?.stop();
});

test("first-run form: a short password is refused, then the first admin is created and lands on the board", async ({ page }) => {
  await page.goto(`${board.url}/`);
  const form = page.getByTestId("auth-setup-form");
  await expect(form).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("board")).toHaveCount(0);
  await expect(page.getByTestId("current-user")).toHaveCount(0);

  await page.getByTestId("auth-username").fill("alice");
  await page.getByTestId("auth-password").fill("too-short");
  await page.getByTestId("auth-submit").click();
  await expect(page.getByTestId("auth-error")).toHaveText("Use a password of at least 10 characters.");

  await page.getByTestId("auth-password").fill("alice-password-1");
  await page.getByTestId("auth-submit").click();
  await expect(page.getByTestId("current-user")).toHaveText("alice", { timeout: 30_000 });
  await expect(page.getByTestId("board")).toBeVisible();
  await expect(page.getByTestId("ws-status")).toHaveAttribute("data-state", "open");
  await expect(page.getByTestId("auth-setup-form")).toHaveCount(0);

  const health = HealthSchema.parse(await (await page.request.get(`${board.url}/api/v1/health`)).json());
  expect(health.auth).toEqual({ enabled: true, setup_required: false });
  const me = await page.request.get(`${board.url}/api/v1/auth/me`);
  expect(await me.json()).toMatchObject({ username: "alice", role: "admin" });

  // Once an admin exists, a reload shows the board, never the first-run form again.
  await page.reload();
  await expect(page.getByTestId("current-user")).toHaveText("alice", { timeout: 30_000 });
  await expect(page.getByTestId("auth-setup-form")).toHaveCount(0);
});
