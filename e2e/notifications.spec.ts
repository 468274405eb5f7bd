import { startBoard, type StartedBoard } from "./board";
import { expect, loggedAgent, test } from "./fixtures";
import { createTaskViaApi, openBoard, saveScreenshot } from "./helpers";

// Notifications go to every browser connected to a board, so this spec has a board of its own:
// no other spec's question can show up here (or count in the title).
let board: StartedBoard;
test.beforeAll(async () => {
  board = await startBoard({ KANDEV_FEATURES_ACP_ELICITATION: "true" });
});
test.afterAll(async () => {
  await board?.stop();
});

interface Recorded {
  __desktop: Array<{ title: string; body: string }>;
  __oscillators: number;
}

test("notification: a question elsewhere gives a toast, a desktop notification, a sound and a count in the tab title; none for the task on screen", async ({
  page,
  tempDir,
}) => {
  // The browser's Notification and WebAudio, recorded: headless Chromium shows neither.
  await page.addInitScript(() => {
    const w = window as unknown as Recorded & Record<string, unknown>;
    w.__desktop = [];
    w.__oscillators = 0;
    class FakeNotification {
      static permission = "granted";
      static requestPermission = async () => "granted";
      onclick: (() => void) | null = null;
      constructor(title: string, options?: { body?: string }) {
        w.__desktop.push({ title, body: options?.body ?? "" });
      }
      close() {}
    }
    w.Notification = FakeNotification;
    const create = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      w.__oscillators += 1;
      return create.call(this);
    };
  });
  const recorded = () =>
    page.evaluate(() => ({ desktop: (window as unknown as Recorded).__desktop, oscillators: (window as unknown as Recorded).__oscillators }));

  const agent = await loggedAgent(page.request, board.url, tempDir);
  const origin = board.url;

  // Preferences: sound on (desktop is on by default and the permission is granted).
  await page.goto(`${origin}/settings`);
  await expect(page.getByTestId("notify-desktop")).toBeChecked();
  await page.getByTestId("notify-sound").check();
  await expect(page.getByTestId("settings-notifications")).toContainText("Allowed by the browser.");

  await openBoard(page, origin);
  const { task: a, session: sessionA } = await createTaskViaApi(
    page.request,
    { title: "Pick a colour", prompt: "/e2e:elicit-ask", agent_profile_id: agent.profileId },
    origin,
  );
  const toast = page.getByTestId("toast");
  await expect(toast).toHaveCount(1);
  await expect(toast).toHaveAttribute("data-task-id", a.id);
  await expect(toast).toContainText("The agent needs your answer");
  await expect(toast).toContainText("Pick a colour");
  await expect(page).toHaveTitle(/^\(1\) /);
  const first = await recorded();
  expect(first.desktop).toEqual([{ title: "Pick a colour", body: "The agent needs your answer" }]);
  expect(first.oscillators).toBeGreaterThan(0);
  // The notification names the task, never the question (F9).
  expect(JSON.stringify(first.desktop)).not.toContain("colour should");
  await saveScreenshot(page, "notification-toast");

  // Opening the task reads its question: the count and the toast go.
  await toast.getByTestId("toast-open").click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${a.id}$`));
  await expect(page.getByTestId("clarification-overlay")).toBeVisible();
  await expect(page).not.toHaveTitle(/^\(\d+\) /);
  await expect(toast).toHaveCount(0);

  // A new question on the task on screen notifies nothing.
  await page.getByTestId("clarification-submit").click();
  await expect(page.getByTestId("clarification-overlay")).toHaveCount(0);
  await expect(page.getByTestId("prompt-input")).toBeEnabled();
  const again = await page.request.post(`${origin}/api/v1/sessions/${sessionA.id}/prompt`, { data: { text: "/e2e:elicit-mcp" } });
  expect(again.status(), await again.text()).toBe(202);
  await expect(page.getByTestId("clarification-question-apiKey")).toBeVisible();

  // A question on another task does; it arrives after the first on the same socket, so by the
  // time its toast shows, the first notification was handled (and ignored).
  const { task: b } = await createTaskViaApi(
    page.request,
    { title: "Another task", prompt: "/e2e:elicit-refusal", agent_profile_id: agent.profileId },
    origin,
  );
  await expect(toast).toHaveCount(1);
  await expect(toast).toHaveAttribute("data-task-id", b.id);
  await expect(page).toHaveTitle(/^\(1\) /);
  expect((await recorded()).desktop.map((d) => d.title)).toEqual(["Pick a colour", "Another task"]);
});
