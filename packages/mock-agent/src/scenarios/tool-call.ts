import type { Scenario } from "../scenario.js";

let toolCalls = 0;

/** Reports a tool call as pending, then completed, then a line of text. */
export const toolCall: Scenario = {
  description: "a tool call (pending -> completed) followed by text",
  async run(ctx) {
    toolCalls += 1;
    const toolCallId = `mock-tool-${toolCalls}`;
    await ctx.update({
      sessionUpdate: "tool_call",
      toolCallId,
      title: ctx.rest.length > 0 ? ctx.rest : "Read README.md",
      kind: "read",
      status: "pending",
    });
    await ctx.sleep(20);
    await ctx.update({ sessionUpdate: "tool_call_update", toolCallId, status: "completed" });
    await ctx.say("Tool call finished.");
    return "end_turn";
  },
};

/** The most steps one `/e2e:steps` turn may report. */
export const MAX_STEPS = 1000;

/**
 * `/e2e:steps <count>`: reports `count` finished tool calls titled "Step 1" ... "Step <count>",
 * then a line of text: one transcript message each, so a test gets a long transcript in one turn.
 */
export const steps: Scenario = {
  description: "reports <count> finished tool calls (Step 1 ... Step <count>), then text",
  async run(ctx) {
    const count = Number(ctx.rest);
    if (!/^\d+$/.test(ctx.rest) || count < 1 || count > MAX_STEPS) {
      throw new Error(`steps needs a count between 1 and ${MAX_STEPS}, got ${JSON.stringify(ctx.rest)}`);
    }
    for (let i = 1; i <= count; i++) {
      toolCalls += 1;
      await ctx.update({
        sessionUpdate: "tool_call",
        toolCallId: `mock-step-${toolCalls}`,
        title: `Step ${i}`,
        kind: "execute",
        status: "completed",
      });
    }
    await ctx.say(`Done with ${count} steps.`);
    return "end_turn";
  },
};
