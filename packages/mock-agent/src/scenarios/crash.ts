import { writeSync } from "node:fs";
import type { Scenario } from "../scenario.js";

/** The line the crash scenario writes to stderr; tests look for it in agentctl's stderr tail. */
export const CRASH_LINE = "mock-agent: crashing on purpose";
export const CRASH_EXIT_CODE = 3;

/** Sends one chunk, then dies mid-turn with exit code 3 (the prompt never gets an answer). */
export const crash: Scenario = {
  description: "one chunk, then exits with code 3 mid-turn",
  async run(ctx) {
    await ctx.say("about to crash");
    // Give the chunk a moment to leave the web-stream writer before the process dies; the exit is
    // the point of the scenario, so a lost chunk would only make it less useful, not wrong.
    await new Promise((r) => setTimeout(r, 50));
    writeSync(2, `${CRASH_LINE}\n`);
    process.exit(CRASH_EXIT_CODE);
  },
};
