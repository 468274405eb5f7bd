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
