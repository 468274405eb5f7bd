import { ClarificationSchema, MessageSchema, TaskSchema } from "@kandev/protocol";
import { expect, test } from "./fixtures";
import { agentMessages, createTaskViaApi, everAppeared, openBoard, openTask, recordAppearances, recordToasts, toastedTasks } from "./helpers";

// The default board runs with features.acpElicitation off (the e2e profile, like production).

test("flag off: a well-formed elicitation is declined; no overlay, clarification, pending action or notification (AC-20)", async ({
  page,
  agent,
}) => {
  await recordAppearances(page, "clarification-overlay");
  await recordToasts(page);
  const flags = (await (await page.request.get("/api/v1/runtime-flags")).json()) as Array<{ key: string; value: boolean }>;
  expect(flags.find((f) => f.key === "features.acpElicitation")?.value).toBe(false);

  // Watch from the board (where a notification would show) while the agent asks.
  await openBoard(page);
  const { task, session } = await createTaskViaApi(page.request, { title: "Flag off", prompt: "/e2e:elicit-ask", agent_profile_id: agent.profileId });
  expect(await agent.answer()).toEqual({ action: "decline" });
  await expect(page.getByTestId(`task-row-${task.id}`).getByTestId("task-state-turn-finished")).toBeVisible();

  await openTask(page, task.id);
  await expect(agentMessages(page).last()).toContainText('elicitation response: {"action":"decline"}');
  expect(await everAppeared(page, "clarification-overlay")).toBe(false);
  // Other specs' questions may toast on this shared board; none may be a question on this task.
  expect(await toastedTasks(page)).not.toContain(`${task.id} session.clarification_requested`);
  const messages = MessageSchema.array().parse(await (await page.request.get(`/api/v1/sessions/${session.id}/messages`)).json());
  expect(messages.filter((m) => m.type === "clarification_request")).toEqual([]);
  const records = ClarificationSchema.array().parse(await (await page.request.get(`/api/v1/clarifications?session_id=${session.id}`)).json());
  expect(records).toEqual([]);
  const after = TaskSchema.parse(await (await page.request.get(`/api/v1/tasks/${task.id}`)).json());
  expect(after.pending_action).toBeNull();
});
