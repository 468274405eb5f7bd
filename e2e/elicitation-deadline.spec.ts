import { startBoard, type StartedBoard } from "./board";
import { expect, loggedAgent, test } from "./fixtures";
import { agentMessages, createTaskViaApi, saveScreenshot } from "./helpers";

// AC-64 needs a board whose agentctl gets a short answer deadline; the shared boards keep the
// 55-minute default, so this spec starts its own.
let board: StartedBoard;

test.beforeAll(async () => {
  board = await startBoard({ KANDEV_FEATURES_ACP_ELICITATION: "true", KANDEV_ELICITATION_ANSWER_TIMEOUT: "4s" });
});
test.afterAll(async () => {
  await board?.stop();
});

test("an unanswered question is declined at its deadline; the overlay shows the time left, then closes with a notice (AC-64)", async ({
  page,
  tempDir,
}) => {
  const agent = await loggedAgent(page.request, board.url, tempDir);
  // Open the task before the question is asked, so the whole 4 s are on screen.
  const { task, session } = await createTaskViaApi(
    page.request,
    { title: "Nobody answers", prompt: "/e2e:echo ready", agent_profile_id: agent.profileId },
    board.url,
  );
  await page.goto(`${board.url}/tasks/${task.id}`);
  await expect(page.getByTestId("task-page")).toHaveAttribute("data-live", "true");
  await expect(page.getByTestId("prompt-input")).toBeEnabled();
  const asked = await page.request.post(`${board.url}/api/v1/sessions/${session.id}/prompt`, { data: { text: "/e2e:elicit-ask" } });
  expect(asked.status(), await asked.text()).toBe(202);

  const deadline = page.getByTestId("clarification-deadline");
  await expect(deadline).toBeVisible();
  const seconds = Number(await deadline.getAttribute("data-seconds"));
  expect(seconds).toBeGreaterThanOrEqual(0);
  expect(seconds).toBeLessThanOrEqual(4);
  await saveScreenshot(page, "overlay-deadline");

  expect(await agent.answer()).toEqual({ action: "decline" });
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  await expect(page.getByTestId("clarification-notice")).toHaveAttribute("data-kind", "timed-out");
  await saveScreenshot(page, "overlay-timed-out-notice");
  // The turn continued: the agent reported the decline and ended its turn normally.
  await expect(agentMessages(page).last()).toContainText('elicitation response: {"action":"decline"}');
  await expect.poll(() => agent.prompts()[1]?.stopReason).toBe("end_turn");
  expect(agent.prompts()).toHaveLength(2);
});
