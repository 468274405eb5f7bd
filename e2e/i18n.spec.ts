import { expect, test } from "./fixtures";
import { saveScreenshot } from "./helpers";

test("i18n: ?lang=de renders German from the server, the cookie remembers it, and the switcher changes it back", async ({ page, context }) => {
  await page.goto("/?lang=de");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Board");
  await expect(page.getByTestId("create-task-button")).toHaveText("Neue Aufgabe");
  await expect(page.getByTestId("nav-settings")).toHaveText("Einstellungen");
  expect((await context.cookies()).find((c) => c.name === "kandev-lang")?.value).toBe("de");

  // Without the query the cookie decides, already in the server render.
  await page.goto("/settings");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Einstellungen");
  await saveScreenshot(page, "settings-german");

  await page.getByTestId("language-switcher").selectOption("en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");
  expect((await context.cookies()).find((c) => c.name === "kandev-lang")?.value).toBe("en");
});
