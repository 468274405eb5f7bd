import { expect, request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { startBoard, type StartedBoard } from "./board";

/** A board with sign-in on (KANDEV_AUTH=on), started by the spec itself (issue 34). */
export function startAuthBoard(): Promise<StartedBoard> {
  return startBoard({ KANDEV_AUTH: "on" });
}

export const ADMIN = { username: "admin", password: "admin-password-1" };

/**
 * An API client of its own (its own cookie jar, apart from the page's) signed in as `who`; with
 * `setup` it first creates the board's first admin.
 */
export async function apiAs(origin: string, who: { username: string; password: string }, setup = false): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL: origin });
  const res = await api.post(setup ? "/api/v1/auth/setup" : "/api/v1/auth/login", { data: who });
  expect(res.status(), await res.text()).toBe(setup ? 201 : 200);
  return api;
}

/** Signs in through the login form and waits for the signed-in header. */
export async function signIn(page: Page, origin: string, who: { username: string; password: string }): Promise<void> {
  await page.goto(`${origin}/`);
  const form = page.getByTestId("auth-login-form");
  await expect(form).toBeVisible({ timeout: 30_000 });
  await page.getByTestId("auth-username").fill(who.username);
  await page.getByTestId("auth-password").fill(who.password);
  await page.getByTestId("auth-submit").click();
  await expect(page.getByTestId("current-user")).toHaveText(who.username, { timeout: 30_000 });
}

/**
 * Signs out with the header's button and waits for the fresh page load it ends with, so the next
 * navigation does not race that reload (a goto during it is aborted).
 */
export async function signOut(page: Page): Promise<void> {
  const reloaded = page.waitForEvent("load");
  await page.getByTestId("auth-logout").click();
  await reloaded;
  await expect(page.getByTestId("auth-login-form")).toBeVisible({ timeout: 30_000 });
}
