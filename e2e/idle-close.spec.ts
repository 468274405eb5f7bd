import { startBoard, type StartedBoard } from "./board";
import { expect, test } from "./fixtures";
import { agentMessages, createTaskViaApi, openTask, processGone, reportedAgentPid, saveScreenshot } from "./helpers";

test("Close agent stops an idle agent's process; the next prompt resumes the session on a new agent", async ({ page, request }) => {
  const { task } = await createTaskViaApi(request, { title: "Idle agent", prompt: "/e2e:pid" });
  await openTask(page, task.id);
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "idle");
  const pid = await reportedAgentPid(page);
  expect(processGone(pid)).toBe(false);

  await page.getByTestId("close-session").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "closed");
  await expect(page.getByTestId("close-session")).toHaveCount(0);
  await expect(page.getByTestId("session-interruption")).toHaveAttribute("data-code", "session_closed");
  await expect.poll(() => processGone(pid), { message: `agent ${pid} gone` }).toBe(true);
  await saveScreenshot(page, "task-agent-closed");

  await page.getByTestId("prompt-input").fill("/e2e:pid");
  await page.getByTestId("prompt-submit").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "idle");
  await expect(page.getByTestId("message-list")).toContainText("starts without memory of earlier turns");
  await expect(agentMessages(page)).toHaveCount(2);
  const resumed = await reportedAgentPid(page);
  expect(resumed).not.toBe(pid);
  expect(processGone(resumed)).toBe(false);
});

test.describe("a board with a short idle timeout", () => {
  let board: StartedBoard;
  test.beforeAll(async () => {
    board = await startBoard({ KANDEV_SESSION_IDLE_TIMEOUT: "3s" });
  });
  test.afterAll(async () => {
    await board?.stop();
  });

  test("an agent idle past KANDEV_SESSION_IDLE_TIMEOUT is stopped, and a prompt resumes its session", async ({ page }) => {
    const { task } = await createTaskViaApi(page.request, { title: "Left idle", prompt: "/e2e:pid" }, board.url);
    await page.goto(`${board.url}/tasks/${task.id}`);
    await expect(page.getByTestId("task-page")).toHaveAttribute("data-live", "true");
    const pid = await reportedAgentPid(page);
    await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "closed");
    await expect(page.getByTestId("session-interruption")).toContainText("Closed while idle");
    await expect.poll(() => processGone(pid), { message: `agent ${pid} gone` }).toBe(true);
    await expect(page.getByTestId("prompt-input")).toBeEnabled();
    await saveScreenshot(page, "task-agent-closed-idle");

    await page.getByTestId("prompt-input").fill("/e2e:pid");
    await page.getByTestId("prompt-submit").click();
    await expect(page.getByTestId("message-list")).toContainText("starts without memory of earlier turns");
    await expect(agentMessages(page)).toHaveCount(2);
    const resumed = await reportedAgentPid(page);
    expect(resumed).not.toBe(pid);
    // The resumed agent goes idle, then the timeout closes it again.
    await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "idle");
    await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "closed");
    await expect.poll(() => processGone(resumed), { message: `agent ${resumed} gone` }).toBe(true);
  });
});
