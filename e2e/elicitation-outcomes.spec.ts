import type { Page } from "@playwright/test";
import { ClarificationSchema, TaskSchema } from "@kandev/protocol";
import { expect, test, type LoggedAgent } from "./fixtures";
import {
  ELICITATION_BOARD,
  agentMessages,
  createTaskViaApi,
  everAppeared,
  expectNotReloaded,
  markNoReload,
  openBoard,
  openTask,
  recordAppearances,
  saveScreenshot,
} from "./helpers";

// How a question ends when the operator does not simply answer it: skip, cancel, the agent
// withdrawing it, answers that cannot be delivered, and requests that must never reach the operator.
test.use({ baseURL: ELICITATION_BOARD });

async function ask(page: Page, agent: LoggedAgent, prompt: string, title = "Question") {
  const { task, session } = await createTaskViaApi(page.request, { title, prompt, agent_profile_id: agent.profileId });
  await openTask(page, task.id);
  await expect(page.getByTestId("clarification-overlay")).toBeVisible();
  return { task, session };
}

async function pendingFor(page: Page, sessionId: string) {
  const res = await page.request.get(`/api/v1/clarifications?session_id=${sessionId}&status=pending`);
  expect(res.status()).toBe(200);
  return ClarificationSchema.array().parse(await res.json());
}

test("a question on a running session shows waiting-for-input on the task row, never running, and clears without a reload (AC-09)", async ({
  page,
  agent,
}) => {
  await openBoard(page);
  await markNoReload(page);
  const { task, session } = await createTaskViaApi(page.request, {
    title: "Waits for me",
    prompt: "/e2e:elicit-ask",
    agent_profile_id: agent.profileId,
  });
  const row = page.getByTestId(`task-row-${task.id}`);
  await expect(row.getByTestId("task-state-waiting-for-input")).toBeVisible();
  await expect(row.getByTestId("task-state-running")).toHaveCount(0);
  await expect(row.getByTestId("task-state-background-running")).toHaveCount(0);
  // The session really is running: the turn is open while the question waits.
  const live = TaskSchema.parse(await (await page.request.get(`/api/v1/tasks/${task.id}`)).json());
  expect(live.pending_action).toBe("clarification");
  expect(live.session_state).toBe("RUNNING");
  expect(live.turn_active).toBe(true);
  await saveScreenshot(page, "board-waiting-for-input");

  const [pending] = await pendingFor(page, session.id);
  const res = await page.request.post(`/api/v1/clarifications/${pending?.pending_id}/respond`, {
    data: { answers: [{ question_id: "question_0", selected_options: ["Red"] }] },
  });
  expect(res.status(), await res.text()).toBe(200);
  await expect(row.getByTestId("task-state-waiting-for-input")).toHaveCount(0);
  await expect(row.getByTestId("task-state-turn-finished")).toBeVisible();
  await expectNotReloaded(page);
});

test("the answer continues the same prompt: one session/prompt, which ends after the answer (AC-13)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:elicit-refusal");
  await page.getByTestId("clarification-option-choice-1").click();
  await page.getByTestId("clarification-submit").click();
  expect(await agent.answer()).toEqual({ action: "accept", content: { choice: "cancelled" } });
  await expect(agentMessages(page).last()).toContainText("elicitation response:");
  await expect.poll(() => agent.prompts()[0]?.stopReason).toBe("end_turn");
  const prompts = agent.prompts();
  expect(prompts).toHaveLength(1);
  const answeredAt = agent.elicitations()[0]?.answeredAt ?? Infinity;
  expect(prompts[0]?.endedAt).toBeGreaterThanOrEqual(answeredAt);
});

test("Skip rejects the bundle: the agent gets decline (AC-14)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:elicit-ask");
  await page.getByTestId("clarification-option-question_0-0").click();
  await page.getByTestId("clarification-skip").click();
  expect(await agent.answer()).toEqual({ action: "decline" });
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  await expect(page.getByTestId("message-list").locator('[data-type="clarification_request"] [data-status]')).toHaveAttribute(
    "data-status",
    "declined",
  );
});

test("cancelling the turn answers cancel and withdraws the overlay (AC-15)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:elicit-ask");
  await page.getByTestId("cancel-turn").click();
  expect(await agent.answer()).toEqual({ action: "cancel" });
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  await expect(page.getByTestId("clarification-notice")).toHaveAttribute("data-kind", "turn-cancelled");
  await saveScreenshot(page, "overlay-withdrawn-notice");
});

test("a question the agent withdraws ($/cancel_request) closes the overlay with a notice", async ({ page, agent }) => {
  // The page is open before the question comes, so the overlay is seen before the agent withdraws it.
  const { task, session } = await createTaskViaApi(page.request, {
    title: "Withdrawn",
    prompt: "/e2e:echo ready",
    agent_profile_id: agent.profileId,
  });
  await openTask(page, task.id);
  await expect(page.getByTestId("prompt-input")).toBeEnabled();
  const asked = await page.request.post(`/api/v1/sessions/${session.id}/prompt`, { data: { text: "/e2e:elicit-agent-cancel 2500" } });
  expect(asked.status(), await asked.text()).toBe(202);
  await expect(page.getByTestId("clarification-overlay")).toBeVisible();
  expect(await agent.answer()).toEqual({ action: "cancel" });
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  await expect(page.getByTestId("clarification-notice")).toHaveAttribute("data-kind", "withdrawn");
});

for (const [id, scenario, what] of [
  ["AC-16", "elicit-url", "a url-mode request"],
  ["AC-17", "elicit-request-scope", "a request-scoped request"],
  ["AC-18", "elicit-empty-schema", "a form with no properties"],
] as const) {
  test(`${id} ${what} is declined and no overlay ever appears`, async ({ page, agent }) => {
    await recordAppearances(page, "clarification-overlay");
    const { task, session } = await createTaskViaApi(page.request, { title: id, prompt: `/e2e:${scenario}`, agent_profile_id: agent.profileId });
    await openTask(page, task.id);
    await expect(agentMessages(page).last()).toContainText('elicitation response: {"action":"decline"}');
    expect(await agent.answer()).toEqual({ action: "decline" });
    expect(await everAppeared(page, "clarification-overlay")).toBe(false);
    const all = ClarificationSchema.array().parse(await (await page.request.get(`/api/v1/clarifications?session_id=${session.id}`)).json());
    expect(all).toEqual([]);
  });
}

test("404: an answer to a question already answered elsewhere says so and closes the overlay", async ({ page, agent }) => {
  const { session } = await ask(page, agent, "/e2e:elicit-ask");
  const [pending] = await pendingFor(page, session.id);
  const url = `/api/v1/clarifications/${pending?.pending_id}/respond`;
  // Another operator answers first, just before this page's answer leaves.
  await page.route("**/api/v1/clarifications/*/respond", async (route) => {
    const first = await page.request.post(url, { data: { answers: [{ question_id: "question_0", selected_options: ["Blue"] }] } });
    expect(first.status()).toBe(200);
    await route.continue();
  });
  const answer = page.waitForResponse((r) => r.url().endsWith("/respond"));
  await page.getByTestId("clarification-option-question_0-0").click();
  await page.getByTestId("clarification-submit").click();
  expect((await answer).status()).toBe(404);
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  await expect(page.getByTestId("clarification-notice")).toHaveAttribute("data-kind", "already-settled");
  await saveScreenshot(page, "overlay-already-settled-notice");
  // The agent saw exactly one answer: the first one.
  expect(await agent.answer()).toEqual({ action: "accept", content: { question_0: "Blue" } });
  expect(agent.elicitations()).toHaveLength(1);
});

test("503: an answer that did not reach the agent keeps the overlay and can be sent again", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:elicit-mcp");
  // The board answers 503 agent_stream_not_connected when agentctl's stream is down; provoke it
  // for the first attempt only.
  let refused = 0;
  await page.route("**/api/v1/clarifications/*/respond", async (route) => {
    if (refused > 0) return route.continue();
    refused += 1;
    await route.fulfill({ status: 503, json: { error: { code: "agent_stream_not_connected", message: "agentctl is not connected" } } });
  });
  await page.getByTestId("clarification-custom-apiKey").fill("sk-retry");
  await page.getByTestId("clarification-submit").click();
  const error = page.getByTestId("clarification-error");
  await expect(error).toHaveAttribute("data-reason", "not-delivered");
  await expect(page.getByTestId("clarification-overlay")).toBeVisible();
  await expect(page.getByTestId("clarification-custom-apiKey")).toHaveValue("sk-retry");
  expect(agent.elicitations()[0]?.answeredAt).toBeUndefined();
  await saveScreenshot(page, "overlay-not-delivered");
  await page.getByTestId("clarification-submit").click();
  expect(await agent.answer()).toEqual({ action: "accept", content: { apiKey: "sk-retry" } });
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  await expect(error).toHaveCount(0);
});

test("two questions at once are answered one after the other (D3)", async ({ page, agent }) => {
  await ask(page, agent, "/e2e:elicit-twice");
  await expect(page.getByTestId("clarification-more")).toBeVisible();
  // A pick moves on to the bundle's next question (issue 33 item 7); Submit sends.
  await page.getByTestId("clarification-option-question_0-0").click();
  await expect(page.getByTestId("clarification-question-question_1")).toBeVisible();
  await page.getByTestId("clarification-submit").click();
  await expect(page.getByTestId("clarification-more")).toHaveCount(0);
  await expect(page.getByTestId("clarification-overlay")).toBeVisible();
  await page.getByTestId("clarification-option-question_0-1").click();
  await expect(page.getByTestId("clarification-question-question_1")).toBeVisible();
  await page.getByTestId("clarification-submit").click();
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  const answers = [await agent.answer(1), await agent.answer(2)].map((a) => JSON.stringify(a)).sort();
  expect(answers).toEqual([
    JSON.stringify({ action: "accept", content: { question_0: "Blue" } }),
    JSON.stringify({ action: "accept", content: { question_0: "Red" } }),
  ]);
});
