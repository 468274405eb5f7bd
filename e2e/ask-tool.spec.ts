import type { Page } from "@playwright/test";
import { expect, test, type LoggedAgent } from "./fixtures";
import { agentMessages, createTaskViaApi, openTask, saveScreenshot } from "./helpers";

// AC-57: questions from ask_user_question_kandev keep the overlay's shipped behaviour for every
// combination of single-select, custom text and skip. The wire here is the tool result the agent
// reads (the mock agent repeats it as `kandev tool result: ...`). Runs on the default board: the
// kandev tool needs no flag.

async function ask(page: Page, agent: LoggedAgent, prompt: string) {
  const { task } = await createTaskViaApi(page.request, { title: "Kandev tool question", prompt, agent_profile_id: agent.profileId });
  await openTask(page, task.id);
  const overlay = page.getByTestId("clarification-overlay");
  await expect(overlay).toBeVisible();
  await expect(overlay).toHaveAttribute("data-source", "kandev_tool");
  return overlay;
}

/** The tool result the agent got, from its frame log, once it is there. */
async function toolResult(agent: LoggedAgent): Promise<string> {
  await expect.poll(() => agent.text()).toMatch(/kandev tool (result|error):/);
  return agent.text();
}

test("single question: picking an option submits at once (AC-57)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:kandev-question");
  const sqlite = page.getByTestId("clarification-option-database-1");
  await expect(sqlite).toContainText("SQLite");
  await expect(sqlite).toContainText("One file, no server");
  await expect(page.getByTestId("clarification-question-database").getByRole("radiogroup")).toBeVisible();
  await expect(page.getByTestId("clarification-submit")).toBeDisabled();
  await saveScreenshot(page, "overlay-kandev-single");
  await sqlite.click();
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  expect(await toolResult(agent)).toContain("kandev tool result: The user answered:\n- Which database should the service use?\n  Answer: SQLite");
  await expect(agentMessages(page).last()).toContainText("Answer: SQLite");
});

test("single question: custom text and Enter send the typed answer (AC-57)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:kandev-question");
  const box = page.getByTestId("clarification-custom-database");
  await box.fill("CockroachDB");
  await expect(page.getByTestId("clarification-submit")).toBeEnabled();
  await box.press("Shift+Enter");
  await box.pressSequentially("please");
  await expect(box).toHaveValue("CockroachDB\nplease");
  await box.press("Enter");
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  expect(await toolResult(agent)).toContain("Answer: CockroachDB\nplease");
});

test("Skip rejects the bundle (AC-57)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:kandev-question");
  await page.getByTestId("clarification-skip").click();
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  expect(await toolResult(agent)).toContain("kandev tool result: The user skipped these questions.");
});

test("bundle: a pick moves on, a selection and custom text exclude each other, Submit waits for every answer (AC-57)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:kandev-question-multi");
  const submit = page.getByTestId("clarification-submit");
  await expect(page.getByTestId("clarification-stepper")).toContainText("Question 1 of 3");
  await expect(submit).toBeDisabled();
  await expect(page.getByTestId("clarification-back")).toHaveCount(0);

  // Digits pick on the question on screen; in a bundle a pick moves on to the next question.
  await expect(page.getByTestId("clarification-option-database-0")).toBeFocused();
  await page.keyboard.press("1");
  await expect(page.getByTestId("clarification-question-auth")).toBeVisible();
  await expect(page.getByTestId("clarification-stepper")).toContainText("Question 2 of 3");

  // Back, then type: the pick is cleared (mutual exclusion); picking again clears the text.
  await page.getByTestId("clarification-back").click();
  await expect(page.getByTestId("clarification-option-database-0")).toHaveAttribute("aria-checked", "true");
  await page.getByTestId("clarification-custom-database").fill("CockroachDB");
  await expect(page.getByTestId("clarification-option-database-0")).toHaveAttribute("aria-checked", "false");
  await page.getByTestId("clarification-option-database-1").click();
  await page.getByTestId("clarification-back").click();
  await expect(page.getByTestId("clarification-custom-database")).toHaveValue("");
  await expect(page.getByTestId("clarification-option-database-1")).toHaveAttribute("aria-checked", "true");
  await page.getByTestId("clarification-next").click();

  // A ask-tool question never takes two options.
  await page.getByTestId("clarification-option-auth-1").click();
  await expect(page.getByTestId("clarification-question-deploy")).toBeVisible();
  await page.getByTestId("clarification-back").click();
  await page.getByTestId("clarification-option-auth-2").click();
  await page.getByTestId("clarification-back").click();
  await expect(page.getByTestId("clarification-question-auth").getByRole("radio", { checked: true })).toHaveCount(1);
  await page.getByTestId("clarification-next").click();

  // Escape only collapses; nothing was sent.
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("clarification-overlay")).toHaveAttribute("data-state", "collapsed");
  await saveScreenshot(page, "overlay-collapsed");
  await page.getByTestId("clarification-expand").click();
  await expect(page.getByTestId("clarification-question-deploy")).toBeVisible();
  expect(agent.text()).not.toContain("kandev tool");

  await expect(submit).toBeDisabled();
  await page.getByTestId("clarification-custom-deploy").fill("Our own rack");
  await expect(submit).toBeEnabled();
  await saveScreenshot(page, "overlay-kandev-bundle");
  await submit.click();
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  const result = await toolResult(agent);
  expect(result).toContain("- Which database should the service use?\n  Answer: SQLite");
  expect(result).toContain("- How should users sign in?\n  Answer: Magic link");
  expect(result).toContain("- Where does it run?\n  Answer: Our own rack");
});

test("custom text is capped at 2,000 characters with a counter (AC-57)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:kandev-question");
  const box = page.getByTestId("clarification-custom-database");
  await box.fill("x".repeat(2_100));
  await expect(box).toHaveValue("x".repeat(2_000));
  await expect(page.getByTestId("clarification-counter-database")).toHaveText("2,000 / 2,000");
  await page.getByTestId("clarification-skip").click();
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
});
