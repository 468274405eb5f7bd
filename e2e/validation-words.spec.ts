import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ELICITATION_BOARD, createTaskViaApi, openTask, saveScreenshot } from "./helpers";

// Issue 36, item 6: what the operator reads is a sentence in their language, next to its field,
// never a schema message; and the German answer overlay fits its card.

async function submitBlank(page: Page, lang: "en" | "de") {
  await page.goto(`/?lang=${lang}`);
  await page.getByTestId("create-task-button").click();
  await page.getByTestId("create-task-title").fill("   ");
  await page.getByTestId("create-task-prompt").fill(" \n ");
  await page.getByTestId("create-task-submit").click();
}

test("a blank title and prompt are refused next to their fields, in English and in German", async ({ page }) => {
  await submitBlank(page, "en");
  await expect(page.getByTestId("create-task-title-error")).toHaveText("Give the task a title.");
  await expect(page.getByTestId("create-task-prompt-error")).toHaveText("Tell the agent what to do: the prompt is empty.");
  await expect(page.getByTestId("create-task-title")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("dialog")).not.toContainText("Too small");

  await submitBlank(page, "de");
  await expect(page.getByTestId("create-task-title-error")).toHaveText("Gib der Aufgabe einen Titel.");
  await expect(page.getByTestId("create-task-prompt-error")).toHaveText("Sag dem Agenten, was er tun soll: der Prompt ist leer.");
  await saveScreenshot(page.locator("dialog"), "create-task-validation-german");
});

test("a field the API refuses is worded by the page, not by the API (German)", async ({ page }) => {
  // Only the server knows the chosen agent is gone: its VALIDATION_ERROR is translated by its field.
  await page.route("**/api/v1/tasks", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({
          status: 400,
          contentType: "application/json",
          body: JSON.stringify({
            error: {
              code: "VALIDATION_ERROR",
              message: "request failed validation",
              details: [{ path: "agent_profile_id", message: "no agent profile gone", code: "custom" }],
            },
          }),
        })
      : route.continue(),
  );
  await page.goto("/?lang=de");
  await page.getByTestId("create-task-button").click();
  await page.getByTestId("create-task-title").fill("Titel");
  await page.getByTestId("create-task-prompt").fill("/e2e:echo hallo");
  await page.getByTestId("create-task-submit").click();
  await expect(page.getByTestId("create-task-agent_profile_id-error")).toHaveText("Diesen Agenten gibt es nicht mehr. Wähle einen anderen.");
});

test.describe("the German answer overlay", () => {
  // Elicitation overlays carry a deadline and a stepper: the widest head and actions there are.
  test.use({ baseURL: ELICITATION_BOARD });

  test("fits its card at desktop and phone widths: nothing is wider than the card, Absenden is whole", async ({ page, agent }) => {
    await page.goto("/?lang=de");
    const { task } = await createTaskViaApi(page.request, { title: "Frage", prompt: "/e2e:elicit-three", agent_profile_id: agent.profileId });
    for (const width of [1280, 720, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await openTask(page, task.id);
      const overlay = page.getByTestId("clarification-overlay");
      await expect(overlay).toBeVisible();
      await expect(page.getByTestId("clarification-submit")).toHaveText("Absenden");
      const measured = await overlay.evaluate((card) => {
        const edge = card.getBoundingClientRect().right;
        const past = [...card.querySelectorAll("*")].filter((el) => el.getBoundingClientRect().right > edge + 0.5).map((el) => el.className);
        return { overflow: card.scrollWidth - card.clientWidth, past };
      });
      expect(measured, `at ${width} px`).toEqual({ overflow: 0, past: [] });
      if (width === 1280) await saveScreenshot(overlay, "clarification-overlay-german");
    }
  });
});
