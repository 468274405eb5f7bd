import type { Scenario } from "../scenario.js";

const TICK_MS = 100;
const TICKS = 50;
const MAX_TICKS = 10_000;

/**
 * Streams a chunk every ~100 ms for ~5 s (`/e2e:slow N`: N ticks, so a test on a loaded machine
 * can be sure the turn still runs when it looks); a cancel stops it and the turn ends `cancelled`.
 */
export const slow: Scenario = {
  description: "streams a chunk every 100 ms for 5 s (or N ticks: /e2e:slow N); honours session/cancel",
  async run(ctx) {
    const asked = Number(ctx.rest);
    const ticks = Number.isInteger(asked) && asked > 0 ? Math.min(asked, MAX_TICKS) : TICKS;
    for (let i = 1; i <= ticks; i += 1) {
      if (ctx.signal.aborted) return "cancelled";
      await ctx.say(`tick ${i} `);
      await ctx.sleep(TICK_MS);
    }
    return ctx.signal.aborted ? "cancelled" : "end_turn";
  },
};
