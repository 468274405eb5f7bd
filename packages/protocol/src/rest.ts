import { z } from "zod";
import { QueuedPromptSchema } from "./entities.js";
import { TaskStateSchema } from "./states.js";

/** Request bodies of the public REST API (docs/API.md). Responses use the entity schemas. */

export const MAX_BODY_BYTES = 1024 * 1024;

/** A task's title: trimmed, never blank (`too_small` names a blank one). */
export const TaskTitleSchema = z.string().trim().min(1, "must not be blank").max(500, "must be at most 500 characters");

/**
 * What an agent is asked to do: kept as typed, but blank or whitespace-only text is refused (a
 * `custom` issue), since it would start an agent with nothing to do.
 */
export const PromptTextSchema = z
  .string()
  .max(1_000_000, "must be at most 1,000,000 characters")
  .refine((s) => s.trim().length > 0, "must not be blank");

export const CreateTaskBodySchema = z.object({
  title: TaskTitleSchema,
  prompt: PromptTextSchema,
  agent_profile_id: z.string().min(1).optional(),
  /** Work in a worktree of this registered repository (docs/API.md "Workspaces"). */
  repository_id: z.string().min(1).optional(),
  /** The branch the task's branch starts from; default the repository's default branch. */
  base_branch: z.string().min(1).max(255).optional(),
});
export type CreateTaskBody = z.infer<typeof CreateTaskBodySchema>;

export const PromptBodySchema = z.object({ text: PromptTextSchema });
export type PromptBody = z.infer<typeof PromptBodySchema>;

/**
 * `POST /sessions/:id/prompt` answers `{turn_id}` when the prompt started a turn, `{queued}` when
 * a turn was running (or the agent starting) and the prompt waits for it to end.
 */
export const PromptAcceptedSchema = z.union([z.object({ turn_id: z.string() }).strict(), z.object({ queued: QueuedPromptSchema }).strict()]);
export type PromptAccepted = z.infer<typeof PromptAcceptedSchema>;

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

/**
 * `PATCH /api/v1/agent-profiles/:id`: only the keys given change. `env` is merged key by key, so a
 * secret can be kept without being sent back: a string replaces (or adds) that variable, `null`
 * removes it, a key left out keeps its value. `cwd: null` clears the working directory.
 */
export const PatchAgentProfileBodySchema = z
  .object({
    name: CreateAgentProfileBodySchema.shape.name.optional(),
    command: CreateAgentProfileBodySchema.shape.command.optional(),
    env: z.record(z.string(), z.string().nullable()).optional(),
    cwd: z.string().nullable().optional(),
  })
  .strict();
export type PatchAgentProfileBody = z.infer<typeof PatchAgentProfileBodySchema>;

/**
 * `PATCH /api/v1/tasks/:id`: rename, move between the board's columns, archive or restore. Which
 * moves are allowed from where is the backend's decision (docs/API.md "Tasks").
 */
export const PatchTaskBodySchema = z
  .object({
    title: TaskTitleSchema.optional(),
    state: TaskStateSchema.optional(),
    archived: z.boolean().optional(),
  })
  .strict()
  .refine((b) => b.title !== undefined || b.state !== undefined || b.archived !== undefined, "give title, state or archived");
export type PatchTaskBody = z.infer<typeof PatchTaskBodySchema>;

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
