import type { WebSocketRoute } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createTaskViaApi, expectNotReloaded, markNoReload, openBoard } from "./helpers";

test("after the live connection drops, the board reconnects and catches up on what it missed", async ({ page }) => {
  // Every /ws connection passes through here: while `serverAway`, a connection is closed at once,
  // as if the board were restarting.
  let serverAway = false;
  const connections: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/ws$/, (ws) => {
    if (serverAway) {
      void ws.close({ code: 1012, reason: "e2e: server away" });
      return;
    }
    ws.connectToServer();
    connections.push(ws);
  });

  await openBoard(page);
  await markNoReload(page);

  serverAway = true;
  await connections.at(-1)?.close({ code: 1012, reason: "e2e: drop" });
  await expect(page.getByTestId("board")).toHaveAttribute("data-live", "false");
  await expect(page.getByTestId("ws-status")).toHaveAttribute("data-state", "reconnecting");

  // Something happens while nobody listens: a task is created and its turn finishes.
  const { task } = await createTaskViaApi(page.request, { title: "Missed while offline", prompt: "/e2e:echo missed" });
  await expect.poll(async () => ((await (await page.request.get(`/api/v1/tasks/${task.id}`)).json()) as { state: string }).state).toBe("REVIEW");
  await expect(page.getByTestId(`task-row-${task.id}`)).toHaveCount(0);

  serverAway = false;
  await expect(page.getByTestId("ws-status")).toHaveAttribute("data-state", "open");
  await expect(page.getByTestId("board")).toHaveAttribute("data-live", "true");
  await expect(page.getByTestId(`task-row-${task.id}`).getByTestId("task-state-turn-finished")).toBeVisible();
  await expectNotReloaded(page);
});
