import { z } from "zod";

/**
 * A ready-made agent profile for a well-known ACP agent (`GET /api/v1/agent-presets`). `available`
 * says whether the board can find the command's executable right now (resolved on PATH or on disk,
 * never by running it).
 */
export const AgentPresetSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  command: z.array(z.string()).min(1),
  /** Names of environment variables the agent needs (e.g. ANTHROPIC_API_KEY); never their values. */
  env_hints: z.array(z.string()),
  available: z.boolean(),
  unavailable_reason: z.string().optional(),
  /** Sent to agentctl as `agent_id`: picks the client capabilities' `_meta` variant. */
  agent_id: z.string(),
  /** How to install the agent when it is missing (shown in the error when its command is not found). */
  install_hint: z.string(),
});
export type AgentPreset = z.infer<typeof AgentPresetSchema>;

/** `POST /api/v1/agent-profiles/from-preset`. */
export const CreateProfileFromPresetBodySchema = z.object({
  preset_id: z.string().min(1).max(200),
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-_]{0,63}$/, "lowercase letters, digits, - and _")
    .optional(),
  name: z.string().trim().min(1).max(200).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
});
export type CreateProfileFromPresetBody = z.infer<typeof CreateProfileFromPresetBodySchema>;
