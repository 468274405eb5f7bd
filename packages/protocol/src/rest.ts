import { z } from "zod";

/** Request bodies of the public REST API (docs/API.md). Responses use the entity schemas. */

export const MAX_BODY_BYTES = 1024 * 1024;

export const CreateTaskBodySchema = z.object({
  title: z.string().trim().min(1).max(500),
  prompt: z.string().min(1).max(1_000_000),
  agent_profile_id: z.string().min(1).optional(),
  /** Work in a worktree of this registered repository (docs/API.md "Workspaces"). */
  repository_id: z.string().min(1).optional(),
  /** The branch the task's branch starts from; default the repository's default branch. */
  base_branch: z.string().min(1).max(255).optional(),
});
export type CreateTaskBody = z.infer<typeof CreateTaskBodySchema>;

export const PromptBodySchema = z.object({ text: z.string().min(1).max(1_000_000) });
export type PromptBody = z.infer<typeof PromptBodySchema>;

/** `POST /tasks/:id/restart`: the first prompt of the new session; default the last one the operator gave. */
export const RestartTaskBodySchema = z.object({ prompt: z.string().min(1).max(1_000_000).optional() });
export type RestartTaskBody = z.infer<typeof RestartTaskBodySchema>;

export const CreateAgentProfileBodySchema = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-_]{0,63}$/, "lowercase letters, digits, - and _")
    .optional(),
  name: z.string().trim().min(1).max(200),
  command: z.array(z.string().min(1)).min(1).max(256),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  /** Sent to agentctl as `agent_id` (e.g. "claude-acp"); defaults to the profile id. */
  agent_id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-_.]{0,63}$/, "lowercase letters, digits, -, _ and .")
    .optional(),
});
export type CreateAgentProfileBody = z.infer<typeof CreateAgentProfileBodySchema>;

export const PatchRuntimeFlagBodySchema = z.object({ value: z.boolean().nullable() });

export const PermissionRespondBodySchema = z.object({
  option_id: z.string().optional(),
  cancelled: z.boolean().optional(),
});

/** The error body every 4xx/5xx answers with. */
export const ApiErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;
