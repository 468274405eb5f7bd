import type { Scenario } from "../scenario.js";

/** Sends nothing at all until the turn is cancelled (exercises the client's idle watchdog). */
export const hang: Scenario = {
  description: "stays silent until cancelled",
  async run(ctx) {
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) return resolve();
      ctx.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    return "cancelled";
  },
};
