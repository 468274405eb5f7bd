import type { Scenario } from "../scenario.js";
import { MOCK_COMMANDS } from "../session-state.js";

/** The usage `/e2e:session-state` reports: 42k of a 200k context, $0.42. */
export const MOCK_USAGE = { used: 42_000, size: 200_000, cost: { amount: 0.42, currency: "USD" } } as const;
/** How many usage updates `/e2e:session-state burst` sends (the last one is `used: BURST * 1000`). */
export const USAGE_BURST = 25;

/**
 * Session state from the agent's side, as the Claude bridge sends it: `/e2e:session-state` sends
 * the available commands, a usage update with cost and a title (session_info_update);
 * `... switch` switches the session to the `plan` mode (current_mode_update); `... burst` sends
 * USAGE_BURST usage updates in a row (the board coalesces their writes).
 */
export const sessionState: Scenario = {
  description: "sends commands, usage with cost and a title; `switch` changes the mode to plan; `burst` many usage updates",
  async run(ctx) {
    const words = ctx.rest.split(/\s+/).filter((w) => w.length > 0);
    if (words.includes("switch")) {
      ctx.settings.switchMode(ctx.sessionId, "plan");
      await ctx.update({ sessionUpdate: "current_mode_update", currentModeId: "plan" });
      await ctx.say("Switched to plan mode.");
      return "end_turn";
    }
    if (words.includes("burst")) {
      for (let i = 1; i <= USAGE_BURST; i++) await ctx.update({ sessionUpdate: "usage_update", used: i * 1000, size: MOCK_USAGE.size });
      await ctx.say("Usage burst sent.");
      return "end_turn";
    }
    await ctx.update({ sessionUpdate: "available_commands_update", availableCommands: MOCK_COMMANDS });
    await ctx.update({ sessionUpdate: "usage_update", ...MOCK_USAGE });
    await ctx.update({ sessionUpdate: "session_info_update", title: "Mock session title", updatedAt: new Date().toISOString() });
    await ctx.say("Session state sent.");
    return "end_turn";
  },
};
