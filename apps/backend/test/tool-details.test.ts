import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { MessageSchema, PlanMetadataSchema, SessionPlanSchema, ToolCallMetadataSchema, type Message } from "@kandev/protocol";
import { PLAN_STEPS, TOOL_DETAILS } from "@kandev/mock-agent";
import { WsClient, api, createTask, eventually, getMessages, startTestServer, waitForTaskState } from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;

/** Sends a prompt and waits for its turn's closing line (the cause), then for the task to settle. */
async function promptAndFinish(base: string, sessionId: string, taskId: string, text: string, closing: string): Promise<void> {
  const res = await api<{ turn_id: string }>(base, "POST", `/api/v1/sessions/${sessionId}/prompt`, { text });
  assert.equal(res.status, 202);
  await eventually(
    async () => (await getMessages(base, sessionId)).find((m) => m.turn_id === res.body.turn_id && m.content.endsWith(closing)),
    `the turn's "${closing}"`,
  );
  await waitForTaskState(base, taskId, "REVIEW");
}

describe("tool-call details and plans through the real agentctl and mock agent", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("a tool_call message keeps content (diffs, text, terminal), locations, raw input and raw output", async () => {
    const { task, session } = await createTask(base, "/e2e:tool-details");
    await waitForTaskState(base, task.id, "REVIEW");
    const tools = (await getMessages(base, session.id)).filter((m) => m.type === "tool_call");
    assert.equal(tools.length, 1, "the call and its updates are one message");
    const meta = ToolCallMetadataSchema.parse(tools[0]!.metadata);
    assert.equal(meta.status, "completed");
    assert.equal(meta.tool_kind, "edit");
    assert.equal(tools[0]!.content, `Edit ${TOOL_DETAILS.editedFile}`);
    assert.ok(meta.locations?.[0]?.path.endsWith(TOOL_DETAILS.editedFile));
    assert.equal(meta.locations?.[0]?.line, 1);
    assert.equal(meta.locations?.[1]?.line, undefined);
    assert.deepEqual(Object.keys(meta.raw_input as object).sort(), ["file_path", "new_string", "old_string"]);
    assert.ok(Array.isArray((meta.raw_output as { created?: unknown }).created));
    const [edit, created, text, terminal] = meta.content ?? [];
    assert.ok(edit?.type === "diff" && created?.type === "diff");
    assert.equal(edit.old_text, TOOL_DETAILS.oldText);
    assert.equal(edit.new_text, TOOL_DETAILS.newText);
    assert.equal(created.old_text, null, "a new file's diff has no old text");
    assert.equal(created.new_text, TOOL_DETAILS.newFileText);
    assert.deepEqual(text, { type: "text", text: TOOL_DETAILS.output });
    assert.deepEqual(terminal, { type: "terminal", terminal_id: TOOL_DETAILS.terminalId });
    assert.equal(meta.raw_input_truncated, undefined);
  });

  test("a turn's plan is one message updated in place, pushed as session.message.updated, and GET plan returns it", async () => {
    const { task, session } = await createTask(base, "/e2e:plain");
    await waitForTaskState(base, task.id, "REVIEW");
    const none = await api(base, "GET", `/api/v1/sessions/${session.id}/plan`);
    assert.deepEqual(SessionPlanSchema.parse(none.body), { plan: null });

    const ws = await WsClient.connect(base);
    try {
      await ws.request("subscribe", { task_id: task.id });
      await promptAndFinish(base, session.id, task.id, "/e2e:plan", "Plan done.");
      const plans = (await getMessages(base, session.id)).filter((m) => m.type === "plan");
      assert.equal(plans.length, 1, "three plan updates in one turn make one message");
      const plan = plans[0]!;
      assert.deepEqual(PlanMetadataSchema.parse(plan.metadata).entries, [
        { content: PLAN_STEPS[0], priority: "high", status: "completed" },
        { content: PLAN_STEPS[1], priority: "medium", status: "completed" },
        { content: PLAN_STEPS[2], priority: "low", status: "completed" },
      ]);
      assert.equal(plan.content, PLAN_STEPS.map((s) => `[x] ${s}`).join("\n"));
      const added = ws.frames.filter((f) => f.action === "session.message.added").map((f) => (f.payload as { message: Message }).message);
      assert.equal(added.filter((m) => m.type === "plan").length, 1);
      const updated = ws.frames
        .filter((f) => f.action === "session.message.updated")
        .map((f) => MessageSchema.parse((f.payload as { message: Message }).message))
        .filter((m) => m.id === plan.id);
      assert.deepEqual(
        updated.map((m) => (m.metadata.entries as Array<{ status: string }>).map((e) => e.status)),
        [
          ["completed", "in_progress", "pending"],
          ["completed", "completed", "completed"],
        ],
      );
      const got = SessionPlanSchema.parse((await api(base, "GET", `/api/v1/sessions/${session.id}/plan`)).body);
      assert.equal(got.plan?.id, plan.id);

      // The next turn's plan is a message of its own, and the one GET plan returns.
      await promptAndFinish(base, session.id, task.id, "/e2e:plan", "Plan done.");
      const again = (await getMessages(base, session.id)).filter((m) => m.type === "plan");
      assert.equal(again.length, 2);
      const latest = SessionPlanSchema.parse((await api(base, "GET", `/api/v1/sessions/${session.id}/plan`)).body);
      assert.equal(latest.plan?.id, again[1]!.id);
    } finally {
      ws.close();
    }
  });

  test("GET plan of an unknown session is 404", async () => {
    const res = await api(base, "GET", "/api/v1/sessions/nope/plan");
    assert.equal(res.status, 404);
  });

  test("thoughts are kept as a thought message", async () => {
    const { task, session } = await createTask(base, "/e2e:thought pondering deeply");
    await waitForTaskState(base, task.id, "REVIEW");
    const thoughts = (await getMessages(base, session.id)).filter((m) => m.type === "thought");
    assert.deepEqual(
      thoughts.map((m) => m.content),
      ["pondering deeply"],
    );
  });
});
