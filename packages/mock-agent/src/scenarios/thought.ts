import type { Scenario } from "../scenario.js";

/** Streams `<text>` (or a default) as `agent_thought_chunk`s, then answers with a line of text. */
export const thought: Scenario = {
  description: "thinks <text> aloud (agent_thought_chunk), then answers",
  async run(ctx) {
    const text = ctx.rest.length > 0 ? ctx.rest : "Let me think about **this** first.";
    const half = Math.ceil(text.length / 2);
    for (const part of [text.slice(0, half), text.slice(half)]) {
      if (part.length > 0) await ctx.update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: part } });
    }
    await ctx.say("Thought it through.");
    return "end_turn";
  },
};
