import type { Scenario } from "../scenario.js";

/** Says the agent's process id (`agent pid 1234`), so a test can check the process is gone later. */
export const pid: Scenario = {
  description: 'replies "agent pid <its process id>"',
  async run(ctx) {
    await ctx.say(`agent pid ${process.pid}`);
    return "end_turn";
  },
};
