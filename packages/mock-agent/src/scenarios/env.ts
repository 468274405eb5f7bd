// What a test needs to prove an agent's environment holds no board secret, and that what an agent
// leaks is redacted. Only variable NAMES ever leave through the transcript, never values.
import { readFileSync, writeSync } from "node:fs";
import * as acp from "@agentclientprotocol/sdk";
import type { Scenario } from "../scenario.js";

/** The exit code of `/e2e:leak-key`, after its turn has failed. */
export const LEAK_EXIT_CODE = 5;

/** Variable names of a NUL-separated environ file (`/proc/<pid>/environ`), or null if unreadable. */
function environNames(file: string): string[] | null {
  try {
    return readFileSync(file, "utf8")
      .split("\0")
      .filter((entry) => entry.length > 0)
      .map((entry) => entry.slice(0, Math.max(0, entry.indexOf("="))));
  } catch {
    return null;
  }
}

/**
 * `/e2e:env [NAME ...]`: replies with the variable names of its own environment and of its parent's
 * (agentctl's, read from `/proc/<ppid>/environ`), sorted, as two lines `self: A B` and `parent: C D`.
 * With names given, only those that are present are listed. Values are never sent.
 */
export const env: Scenario = {
  description: "replies with the names (never values) of its own and its parent's environment variables, or those of <names> present",
  async run(ctx) {
    const wanted = ctx.rest.split(/\s+/).filter((n) => n.length > 0);
    const pick = (names: string[] | null) =>
      names === null
        ? "(unreadable)"
        : [...new Set(names)]
            .filter((n) => wanted.length === 0 || wanted.includes(n))
            .sort()
            .join(" ");
    await ctx.say(`self: ${pick(Object.keys(process.env))}\nparent: ${pick(environNames(`/proc/${process.ppid}/environ`))}`);
    return "end_turn";
  },
};

/**
 * `/e2e:leak-key NAME`: an agent that gives away the value of its variable NAME everywhere an error
 * goes: a stderr line, the error its session/prompt fails with, then (once the turn has failed) an
 * exit with code 5 and the value again as its last stderr line.
 */
export const leakKey: Scenario = {
  description: "writes the value of variable <rest> to stderr, fails the turn with it, then exits with code 5",
  async run(ctx) {
    const value = process.env[ctx.rest] ?? "";
    writeSync(2, `mock-agent: authenticating with ${value}\n`);
    setTimeout(() => {
      writeSync(2, `mock-agent: key ${value} refused, giving up\n`);
      process.exit(LEAK_EXIT_CODE);
    }, 300);
    throw new acp.RequestError(-32000, `the upstream refused the key ${value}`);
  },
};
