import type { Scenario } from "../scenario.js";

/** Streams the rest of the prompt back in several chunks. */
export const echo: Scenario = {
  description: "streams the rest of the prompt back in chunks",
  async run(ctx) {
    await ctx.stream(ctx.rest.length > 0 ? ctx.rest : "(empty)", { chunks: 4, delayMs: 20 });
    return "end_turn";
  },
};

/** Replies "ok" and does nothing else (never asks anything). */
export const plain: Scenario = {
  description: 'replies "ok"',
  async run(ctx) {
    await ctx.say("ok");
    return "end_turn";
  },
};
