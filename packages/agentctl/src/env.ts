// The only module of agentctl that reads process.env. Everything else takes options.
import { z } from "zod";
import { agentEnvFrom } from "./agent-env.js";
import { parseDuration } from "./duration.js";
import { DEFAULT_TIMEOUTS, timeoutsProblem, type Timeouts } from "./timeouts.js";

const durationSchema = (name: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === "") return undefined;
      const ms = parseDuration(value);
      if (ms === null) {
        ctx.addIssue({
          code: "custom",
          message: `${name}="${value}" is not a duration (use e.g. 500ms, 30s, 55m, 1h)`,
        });
        return z.NEVER;
      }
      return ms;
    });

const EnvSchema = z.object({
  KANDEV_ELICITATION_ANSWER_TIMEOUT: durationSchema("KANDEV_ELICITATION_ANSWER_TIMEOUT"),
  KANDEV_ACP_IDLE_TIMEOUT: durationSchema("KANDEV_ACP_IDLE_TIMEOUT"),
});

/** What agentctl takes from its environment. */
export interface AgentctlEnv {
  timeouts: Timeouts;
}

/**
 * Reads and validates agentctl's environment. Throws an Error with a readable message on a bad
 * duration or when the answer timeout is not strictly below the idle timeout.
 */
export function loadEnv(env: NodeJS.ProcessEnv = process.env): AgentctlEnv {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join("; "));
  const timeouts: Timeouts = {
    elicitationAnswerMs: parsed.data.KANDEV_ELICITATION_ANSWER_TIMEOUT ?? DEFAULT_TIMEOUTS.elicitationAnswerMs,
    acpIdleMs: parsed.data.KANDEV_ACP_IDLE_TIMEOUT ?? DEFAULT_TIMEOUTS.acpIdleMs,
  };
  const problem = timeoutsProblem(timeouts);
  if (problem !== null) {
    throw new Error(`${problem} (KANDEV_ELICITATION_ANSWER_TIMEOUT / KANDEV_ACP_IDLE_TIMEOUT)`);
  }
  return { timeouts };
}

/**
 * The environment an agent starts from: agentctl's own without the board's settings (`KANDEV_*`)
 * and credential-looking variables (agent-env.ts). The backend already hands agentctl an
 * environment filtered the same way; filtering again here holds the rule for an agentctl started
 * any other way (a script, `acp:probe`).
 */
export function baseAgentEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return agentEnvFrom(env);
}
