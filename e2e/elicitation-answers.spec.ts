import type { Page } from "@playwright/test";
import { expect, test, type LoggedAgent } from "./fixtures";
import { ELICITATION_BOARD, agentMessages, createTaskViaApi, openTask, saveScreenshot } from "./helpers";

// What the operator does in the overlay, asserted on the screen and on the wire: the mock agent's
// frame log holds the exact elicitation/create response agentctl sent.
//
// Since issue 33 item 7 a single-select pick in a bundle moves on to the next question, as on the
// kandev tool. AC-10, AC-12a, AC-12i, AC-12h and the keyboard test follow that gesture (Back to
// see or annotate a pick, no Next after it); what each AC asserts on the wire is unchanged, and
// none of them (nor AC-55, AC-56, AC-12b, A2) forbids the move: multi-select picks still stay,
// nothing submits on a pick, and text still goes beside a pick.
test.use({ baseURL: ELICITATION_BOARD });

/** Creates a task whose agent asks `prompt`'s elicitation, opens it and returns the overlay. */
async function ask(page: Page, agent: LoggedAgent, prompt: string, title = "Answer the agent") {
  const { task, session } = await createTaskViaApi(page.request, { title, prompt, agent_profile_id: agent.profileId });
  await openTask(page, task.id);
  const overlay = page.getByTestId("clarification-overlay");
  await expect(overlay).toBeVisible();
  return { task, session, overlay };
}

/** The agent got `response`, the overlay is gone and the agent's report is on screen. */
async function expectAnswered(page: Page, agent: LoggedAgent, response: unknown) {
  const got = await agent.answer();
  expect(got).toEqual(response);
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  await expect(agentMessages(page).last()).toContainText(`elicitation response: ${JSON.stringify(got)}`);
}

const json = (params: unknown) => `/e2e:elicit-json ${JSON.stringify(params)}`;
const one = (key: string, schema: unknown, message = "Please answer the following questions.") => ({
  mode: "form",
  message,
  requestedSchema: { type: "object", properties: { [key]: schema } },
});

test("selecting an option sends its label at the schema's own property key (AC-10)", async ({ page, agent }) => {
  const { overlay } = await ask(page, agent, "/e2e:elicit-ask");
  await expect(overlay).toHaveAttribute("data-source", "elicitation");
  await expect(page.getByTestId("clarification-question-question_0")).toContainText("Which colour should the button be?");
  await expect(page.getByTestId("clarification-option-question_0-0")).toContainText("Warm and loud.");
  await saveScreenshot(page, "overlay-elicitation-single");
  await page.getByTestId("clarification-option-question_0-0").click();
  // A single-select pick in a bundle moves on to the next question (issue 33 item 7); nothing is sent.
  await expect(page.getByTestId("clarification-question-question_1")).toBeVisible();
  await page.getByTestId("clarification-back").click();
  await expect(page.getByTestId("clarification-option-question_0-0")).toHaveAttribute("aria-checked", "true");
  await page.getByTestId("clarification-submit").click();
  await expectAnswered(page, agent, { action: "accept", content: { question_0: "Red" } });
  await expect(page.getByTestId("message-list").locator('[data-type="clarification_request"]')).toContainText("Red");
});

test("free text goes to the marked companion's own key (answer_freeform) (AC-11)", async ({ page, agent }) => {
  const params = {
    mode: "form",
    message: "Pick a database",
    requestedSchema: {
      type: "object",
      properties: {
        db: {
          type: "string",
          title: "Database",
          description: "Which database?",
          oneOf: [
            { const: "Postgres", title: "Postgres" },
            { const: "SQLite", title: "SQLite" },
          ],
        },
        answer_freeform: {
          type: "string",
          title: "Something else",
          description: "Name a database we did not list",
          _meta: { _askUserQuestionCustomAnswer: { questionId: "db", isCustomAnswer: true } },
        },
      },
    },
  };
  await ask(page, agent, json(params));
  const box = page.getByTestId("clarification-custom-db");
  // A2: the box carries the companion's own title and description.
  await expect(page.getByLabel("Something else")).toBeVisible();
  await expect(box).toHaveAccessibleDescription(/Name a database we did not list/);
  await box.fill("DuckDB");
  await page.getByTestId("clarification-submit").click();
  await expectAnswered(page, agent, { action: "accept", content: { answer_freeform: "DuckDB" } });
});

test("an MCP apiKey question answered with free text sends it at its own key (AC-11a)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:elicit-mcp");
  await page.getByTestId("clarification-custom-apiKey").fill("sk-test-123");
  await page.getByTestId("clarification-custom-apiKey").press("Enter");
  await expectAnswered(page, agent, { action: "accept", content: { apiKey: "sk-test-123" } });
});

test("a zero-option question renders a text box alone, submittable (AC-56)", async ({ page, agent }) => {
  const { overlay } = await ask(page, agent, "/e2e:elicit-mcp");
  const question = page.getByTestId("clarification-question-apiKey");
  await expect(question).toContainText("Enter your API key");
  await expect(question.getByRole("radiogroup")).toHaveCount(0);
  await expect(question.getByRole("group")).toHaveCount(0);
  await expect(overlay.locator("[data-option-index]")).toHaveCount(0);
  await expect(page.getByTestId("clarification-custom-apiKey")).toBeVisible();
  await expect(page.getByTestId("clarification-submit")).toBeEnabled();
  await page.getByTestId("clarification-custom-apiKey").fill("T");
  await saveScreenshot(page, "overlay-elicitation-text-only");
  await page.getByTestId("clarification-submit").click();
  await expectAnswered(page, agent, { action: "accept", content: { apiKey: "T" } });
});

test("two options of a multi-select are sent as an array of their labels (AC-12)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:elicit-ask");
  await page.getByTestId("clarification-next").click();
  const group = page.getByTestId("clarification-question-question_1").getByRole("group");
  await expect(group).toBeVisible();
  await page.getByTestId("clarification-option-question_1-0").click();
  await page.getByTestId("clarification-option-question_1-2").click();
  await expect(group.getByRole("checkbox", { checked: true })).toHaveCount(2);
  await saveScreenshot(page, "overlay-elicitation-multi");
  await page.getByTestId("clarification-submit").click();
  await expectAnswered(page, agent, { action: "accept", content: { question_1: ["Web", "Android"] } });
});

test("free text with a selection reaches the companion key trimmed (AC-12a)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:elicit-ask");
  // Text first, then the pick, which moves on to the next question and keeps the text.
  await page.getByTestId("clarification-custom-question_0").fill(" CockroachDB ");
  await page.getByTestId("clarification-option-question_0-1").click();
  await expect(page.getByTestId("clarification-question-question_1")).toBeVisible();
  await page.getByTestId("clarification-submit").click();
  const got = (await agent.answer()) as { content: Record<string, unknown> };
  expect(got.content.question_0_custom).toBe("CockroachDB");
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
});

test("(amended by A2) a selection plus text sends both keys, the pick staying visible while typing (AC-12i)", async ({ page, agent }) => {
  // The current bridge (0.101.0): companions carry no marker and describe themselves as a note.
  await ask(page, agent, "/e2e:elicit-ask-latest");
  const blue = page.getByTestId("clarification-option-question_0-1");
  await blue.click();
  // The pick moved on (issue 33 item 7); Back shows it again, still picked, to add the note.
  await expect(page.getByTestId("clarification-question-question_1")).toBeVisible();
  await page.getByTestId("clarification-back").click();
  await page.getByTestId("clarification-custom-question_0").fill("but a darker shade");
  await expect(blue).toHaveAttribute("aria-checked", "true");
  await expect(page.getByTestId("clarification-custom-question_0")).toHaveAccessibleDescription(/add a note to the option you chose above/);
  await saveScreenshot(page, "overlay-elicitation-selection-and-note");
  await page.getByTestId("clarification-next").click();
  await page.getByTestId("clarification-submit").click();
  await expectAnswered(page, agent, { action: "accept", content: { question_0: "Blue", question_0_custom: "but a darker shade" } });
});

test("submitting with nothing answered sends accept with empty content (AC-12b)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:elicit-ask");
  await expect(page.getByTestId("clarification-submit")).toBeEnabled();
  await page.getByTestId("clarification-submit").click();
  await expectAnswered(page, agent, { action: "accept", content: {} });
});

test("the refusal-fallback dialog: the message is the prompt and the first option is sent (AC-12c)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:elicit-refusal");
  const question = page.getByTestId("clarification-question-choice");
  await expect(question).toContainText("Retry with Opus?");
  await expect(question.getByRole("radio")).toHaveCount(2);
  await page.getByTestId("clarification-option-choice-0").click();
  await page.getByTestId("clarification-submit").click();
  await expectAnswered(page, agent, { action: "accept", content: { choice: "retry_fallback" } });
});

test("answering only the second of three questions sends exactly one key (AC-12h)", async ({ page, agent }) => {
  const yesNo = (n: number) => ({
    type: "string",
    title: `Q${n}`,
    description: `Question ${n}?`,
    oneOf: [
      { const: "Yes", title: "Yes" },
      { const: "No", title: "No" },
    ],
  });
  const params = {
    mode: "form",
    message: "Three questions",
    requestedSchema: { type: "object", properties: { question_0: yesNo(0), question_1: yesNo(1), question_2: yesNo(2) } },
  };
  await ask(page, agent, json(params));
  await expect(page.getByTestId("clarification-stepper")).toContainText("Question 1 of 3");
  await page.getByTestId("clarification-next").click();
  await page.getByTestId("clarification-option-question_1-1").click();
  // The pick moves on by itself (issue 33 item 7).
  await expect(page.getByTestId("clarification-question-question_2")).toBeVisible();
  await page.getByTestId("clarification-submit").click();
  await expectAnswered(page, agent, { action: "accept", content: { question_1: "No" } });
});

test("multi-select is sent in declaration order, not click order (AC-55)", async ({ page, agent }) => {
  const envs = {
    type: "array",
    title: "Environments",
    description: "Where should it deploy?",
    items: { anyOf: ["dev", "staging", "prod"].map((e) => ({ const: e, title: e })) },
  };
  await ask(page, agent, json(one("envs", envs, "Deploy")));
  await page.getByTestId("clarification-option-envs-2").click();
  await page.getByTestId("clarification-option-envs-0").click();
  await expect(page.getByTestId("clarification-option-envs-2")).toHaveAttribute("aria-checked", "true");
  await expect(page.getByTestId("clarification-option-envs-0")).toHaveAttribute("aria-checked", "true");
  await page.getByTestId("clarification-submit").click();
  await expectAnswered(page, agent, { action: "accept", content: { envs: ["dev", "prod"] } });
});

test("keyboard only: a two-question bundle answered with digits, arrows, Space and Enter", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:elicit-ask");
  // The overlay takes focus when it appears (nothing else had it).
  await expect(page.getByTestId("clarification-option-question_0-0")).toBeFocused();
  await page.keyboard.press("2");
  // The pick moves on to the next question (issue 33 item 7), focus with it.
  await expect(page.getByTestId("clarification-question-question_1")).toBeVisible();
  await expect(page.getByTestId("clarification-option-question_1-0")).toBeFocused();
  // Escape only collapses: nothing is sent, the draft survives.
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("clarification-overlay")).toHaveAttribute("data-state", "collapsed");
  await expect(page.getByTestId("clarification-expand")).toBeFocused();
  expect(agent.elicitations()[0]?.answeredAt).toBeUndefined();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("clarification-option-question_1-0")).toBeFocused();
  await expect(page.getByRole("button", { name: "Go to question 1 (answered)" })).toBeVisible();
  await page.keyboard.press("1");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(page.getByTestId("clarification-option-question_1-2")).toBeFocused();
  await page.keyboard.press("Space");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Space");
  await page.keyboard.press("Space");
  await expect(page.getByTestId("clarification-question-question_1").getByRole("checkbox", { checked: true })).toHaveCount(2);
  await saveScreenshot(page, "overlay-keyboard-bundle");
  await page.keyboard.press("Enter");
  await expectAnswered(page, agent, { action: "accept", content: { question_0: "Blue", question_1: ["Web", "Android"] } });
});

test("agent text with <img src=x onerror=alert(1)> is rendered inert, as text", async ({ page, agent }) => {
  const evil = "<img src=x onerror=alert(1)>";
  const params = {
    mode: "form",
    message: `Careful ${evil}`,
    requestedSchema: {
      type: "object",
      properties: {
        pick: {
          type: "string",
          title: "<b>bold?</b>",
          description: `Which one ${evil}`,
          oneOf: [
            { const: evil, title: evil, description: "<script>alert(2)</script>" },
            { const: "plain", title: "plain" },
          ],
        },
      },
    },
  };
  const { overlay } = await ask(page, agent, json(params));
  await expect(overlay).toContainText(`Which one ${evil}`);
  await expect(page.getByTestId("clarification-option-pick-0")).toContainText(evil);
  await expect(page.getByTestId("clarification-option-pick-0")).toContainText("<script>alert(2)</script>");
  await expect(overlay).toContainText("<b>bold?</b>");
  await expect(overlay.locator("img, script, b")).toHaveCount(0);
  await expect(page.locator("main img")).toHaveCount(0);
  await saveScreenshot(page, "overlay-inert-agent-text");
  await page.getByTestId("clarification-option-pick-0").click();
  await page.getByTestId("clarification-submit").click();
  await expectAnswered(page, agent, { action: "accept", content: { pick: evil } });
  // The fixture fails the test on any dialog: alert() never ran.
});
