import type { Page } from "@playwright/test";
import { expect, test, type LoggedAgent } from "./fixtures";
import { ELICITATION_BOARD, agentMessages, createTaskViaApi, openTask } from "./helpers";

// Issue 33, item 7: both answer overlays (a kandev-tool question and an ACP elicitation) behave
// alike where the spec allows. A single-select pick moves on to the next question, each question
// says how to answer it and whether it must be, a disabled Submit says why, and a half-answered
// bundle survives leaving the page until it is sent or settles.

const DRAFT_PREFIX = "kandev.clarification-draft.";

async function ask(page: Page, agent: LoggedAgent, prompt: string) {
  const { task, session } = await createTaskViaApi(page.request, { title: "Answer the agent", prompt, agent_profile_id: agent.profileId });
  await openTask(page, task.id);
  const overlay = page.getByTestId("clarification-overlay");
  await expect(overlay).toBeVisible();
  const pendingId = (await overlay.getAttribute("data-pending-id")) ?? "";
  expect(pendingId).not.toBe("");
  return { task, session, overlay, pendingId };
}

/** The saved draft of a clarification, as the page stored it (null when there is none). */
async function savedDraft(page: Page, pendingId: string): Promise<unknown> {
  const raw = await page.evaluate((key) => window.localStorage.getItem(key), `${DRAFT_PREFIX}${pendingId}`);
  return raw === null ? null : JSON.parse(raw);
}

/** The tool result the agent got, from its frame log, once it is there. */
async function toolResult(agent: LoggedAgent): Promise<string> {
  await expect.poll(() => agent.text()).toMatch(/kandev tool (result|error):/);
  return agent.text();
}

test.describe("a kandev-tool bundle (default board)", () => {
  test("a pick moves on; a disabled Submit names the questions still open; the draft survives a reload", async ({ page, agent }) => {
    const { pendingId } = await ask(page, agent, "/e2e:kandev-question-multi");
    const submit = page.getByTestId("clarification-submit");
    const reason = page.getByTestId("clarification-submit-reason");
    await expect(page.getByTestId("clarification-hint-database")).toHaveText("Pick one, or type your own answer · Required");
    await expect(submit).toBeDisabled();
    await expect(reason).toHaveText("Answer questions 1, 2, and 3 to submit");
    await expect(submit).toHaveAccessibleDescription("Answer questions 1, 2, and 3 to submit");

    await page.getByTestId("clarification-option-database-1").click();
    await expect(page.getByTestId("clarification-question-auth")).toBeVisible();
    await expect(reason).toHaveText("Answer questions 2 and 3 to submit");
    await page.getByTestId("clarification-option-auth-2").click();
    await expect(page.getByTestId("clarification-question-deploy")).toBeVisible();
    await expect(submit).toHaveAccessibleDescription("Answer question 3 to submit");
    await page.getByTestId("clarification-custom-deploy").fill("Our own rack");
    await expect(submit).toBeEnabled();
    await expect(reason).toHaveCount(0);
    await expect(submit).not.toHaveAttribute("aria-describedby");

    // Leaving the page (a reload) and coming back finds the same answers on the same question.
    await expect.poll(() => savedDraft(page, pendingId)).toMatchObject({ step: 2 });
    await page.reload();
    await expect(page.getByTestId("task-page")).toHaveAttribute("data-live", "true");
    await expect(page.getByTestId("clarification-custom-deploy")).toHaveValue("Our own rack");
    await page.getByTestId("clarification-back").click();
    await expect(page.getByTestId("clarification-option-auth-2")).toHaveAttribute("aria-checked", "true");
    expect(agent.text()).not.toContain("kandev tool");

    await submit.click();
    await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
    const result = await toolResult(agent);
    expect(result).toContain("Answer: SQLite");
    expect(result).toContain("Answer: Magic link");
    expect(result).toContain("Answer: Our own rack");
    expect(await savedDraft(page, pendingId)).toBeNull();
  });

  test("a lone question's disabled Submit says what it waits for, in English and German", async ({ page, agent }) => {
    const { task } = await ask(page, agent, "/e2e:kandev-question");
    const submit = page.getByTestId("clarification-submit");
    await expect(submit).toBeDisabled();
    await expect(submit).toHaveAccessibleDescription("Pick an option or type an answer to submit");
    await page.goto(`/tasks/${task.id}?lang=de`);
    await expect(page.getByTestId("task-page")).toHaveAttribute("data-live", "true");
    await expect(page.getByTestId("clarification-hint-database")).toHaveText("Wähle eine Option oder schreib eine eigene Antwort · Pflichtfrage");
    await expect(submit).toHaveAccessibleDescription("Wähle eine Option oder schreib eine Antwort, um abzusenden");
    await page.getByTestId("clarification-skip").click();
    await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  });
});

test.describe("an elicitation bundle (elicitation board)", () => {
  test.use({ baseURL: ELICITATION_BOARD });

  test("a single-select pick moves on as on the kandev tool, a multi-select pick stays, and nothing is sent before Submit", async ({
    page,
    agent,
  }) => {
    await ask(page, agent, "/e2e:elicit-ask");
    await expect(page.getByTestId("clarification-hint-question_0")).toHaveText("Pick one, type below, or both · Optional");
    await page.getByTestId("clarification-option-question_0-1").click();
    await expect(page.getByTestId("clarification-question-question_1")).toBeVisible();
    await expect(page.getByTestId("clarification-stepper")).toContainText("Question 2 of 2");
    await expect(page.getByTestId("clarification-hint-question_1")).toHaveText("Pick any that apply, type below, or both · Optional");
    await page.getByTestId("clarification-option-question_1-0").click();
    await page.getByTestId("clarification-option-question_1-2").click();
    await expect(page.getByTestId("clarification-question-question_1").getByRole("checkbox", { checked: true })).toHaveCount(2);
    // An elicitation's Submit never waits (AC-12b), so it has nothing to explain.
    await expect(page.getByTestId("clarification-submit")).toBeEnabled();
    await expect(page.getByTestId("clarification-submit-reason")).toHaveCount(0);
    expect(agent.elicitations()[0]?.answeredAt).toBeUndefined();
    await page.getByTestId("clarification-submit").click();
    expect(await agent.answer()).toEqual({ action: "accept", content: { question_0: "Blue", question_1: ["Web", "Android"] } });
  });

  test("a half-answered bundle survives a reload and navigating away and back; it is cleared once sent", async ({ page, agent }) => {
    const { task, pendingId } = await ask(page, agent, "/e2e:elicit-ask");
    await page.getByTestId("clarification-option-question_0-1").click();
    await page.getByTestId("clarification-option-question_1-0").click();
    await expect
      .poll(() => savedDraft(page, pendingId))
      .toMatchObject({ step: 1, draft: { question_0: { selected: ["Blue"] }, question_1: { selected: ["Web"] } } });

    await page.reload();
    await expect(page.getByTestId("task-page")).toHaveAttribute("data-live", "true");
    await expect(page.getByTestId("clarification-option-question_1-0")).toHaveAttribute("aria-checked", "true");
    await page.getByTestId("clarification-back").click();
    await expect(page.getByTestId("clarification-option-question_0-1")).toHaveAttribute("aria-checked", "true");
    await page.getByTestId("clarification-custom-question_0").fill("a darker shade");

    // Away to the board (in-app navigation) and back with the browser's Back button.
    await page.locator("header a.brand").click();
    await expect(page.getByTestId("board")).toBeVisible();
    await expect(page.getByTestId(`task-row-${task.id}`)).toBeVisible();
    await page.goBack();
    await expect(page.getByTestId("clarification-overlay")).toBeVisible();
    await expect(page.getByTestId("clarification-custom-question_0")).toHaveValue("a darker shade");
    await expect(page.getByTestId("clarification-option-question_0-1")).toHaveAttribute("aria-checked", "true");
    expect(agent.elicitations()[0]?.answeredAt).toBeUndefined();

    await page.getByTestId("clarification-submit").click();
    expect(await agent.answer()).toEqual({
      action: "accept",
      content: { question_0: "Blue", question_0_custom: "a darker shade", question_1: ["Web"] },
    });
    await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
    await expect(agentMessages(page).last()).toContainText("elicitation response:");
    expect(await savedDraft(page, pendingId)).toBeNull();
  });

  test("a draft whose question was answered elsewhere is dropped, not restored", async ({ page, agent }) => {
    const { task, pendingId } = await ask(page, agent, "/e2e:elicit-ask");
    await page.getByTestId("clarification-custom-question_0").fill("half a thought");
    await expect.poll(() => savedDraft(page, pendingId)).not.toBeNull();

    await page.locator("header a.brand").click();
    await expect(page.getByTestId("board")).toBeVisible();
    const res = await page.request.post(`/api/v1/clarifications/${pendingId}/respond`, {
      data: { answers: [{ question_id: "question_0", selected_options: ["Red"] }] },
    });
    expect(res.status(), await res.text()).toBe(200);
    expect(await agent.answer()).toEqual({ action: "accept", content: { question_0: "Red" } });

    await openTask(page, task.id);
    await expect(page.getByTestId("message-list").locator('[data-type="clarification_request"] [data-status]')).toHaveAttribute(
      "data-status",
      "answered",
    );
    await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
    await expect.poll(() => savedDraft(page, pendingId)).toBeNull();
  });
});
