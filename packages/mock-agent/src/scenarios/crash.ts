import { existsSync, writeFileSync, writeSync } from "node:fs";
import type { Scenario, ScenarioContext } from "../scenario.js";

/** The line the crash scenario writes to stderr; tests look for it in agentctl's stderr tail. */
export const CRASH_LINE = "mock-agent: crashing on purpose";
export const CRASH_EXIT_CODE = 3;

async function dieMidTurn(ctx: ScenarioContext): Promise<never> {
  await ctx.say("about to crash");
  // Give the chunk a moment to leave the web-stream writer before the process dies; the exit is
  // the point of the scenario, so a lost chunk would only make it less useful, not wrong.
  await new Promise((r) => setTimeout(r, 50));
  writeSync(2, `${CRASH_LINE}\n`);
  process.exit(CRASH_EXIT_CODE);
}

/** Sends one chunk, then dies mid-turn with exit code 3 (the prompt never gets an answer). */
export const crash: Scenario = {
  description: "one chunk, then exits with code 3 mid-turn",
  run: dieMidTurn,
};

/**
 * `/e2e:crash-once <marker file>`: crashes like `crash` while the marker file does not exist
 * (creating it first), and says "running again" once it does. "Start again" re-sends the prompt
 * that crashed, so this is how a test shows a task recovering from a crash.
 */
export const crashOnce: Scenario = {
  description: "crashes like crash the first time (creates the marker file <rest>), then replies running again",
  async run(ctx) {
    if (ctx.rest === "") {
      await ctx.say("crash-once needs a marker file path");
      return "end_turn";
    }
    if (existsSync(ctx.rest)) {
      await ctx.say("running again after the crash");
      return "end_turn";
    }
    writeFileSync(ctx.rest, "crashed");
    return dieMidTurn(ctx);
  },
};
