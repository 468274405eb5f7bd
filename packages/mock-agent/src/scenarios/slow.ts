import type { Scenario } from "../scenario.js";

const TICK_MS = 100;
const TICKS = 50;

/** Streams a chunk every ~100 ms for ~5 s; a cancel stops it and the turn ends `cancelled`. */
export const slow: Scenario = {
  description: "streams a chunk every 100 ms for 5 s; honours session/cancel",
  async run(ctx) {
    for (let i = 1; i <= TICKS; i += 1) {
      if (ctx.signal.aborted) return "cancelled";
      await ctx.say(`tick ${i} `);
      await ctx.sleep(TICK_MS);
    }
    return ctx.signal.aborted ? "cancelled" : "end_turn";
  },
};
