import { z } from "zod";

/**
 * What an ACP session is set to and what it offers, as the agent said (ACP `session/new` and
 * `session/load` results, and its later `session/update`s): modes, config options (the model,
 * typically), slash commands, context usage and a title. The board keeps the latest of each on
 * the session (docs/API.md "Sessions").
 */

export const SessionModeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
});
export type SessionMode = z.infer<typeof SessionModeSchema>;

export const SessionModesSchema = z.object({
  current_mode_id: z.string(),
  available_modes: z.array(SessionModeSchema),
});
export type SessionModes = z.infer<typeof SessionModesSchema>;

/** A config option's value: an option's `value` for a `select`, true/false for a `boolean`. */
export const ConfigValueSchema = z.union([z.string(), z.boolean()]);
export type ConfigValue = z.infer<typeof ConfigValueSchema>;

export const SessionConfigSelectOptionSchema = z.object({
  value: z.string(),
  name: z.string(),
  description: z.string().optional(),
});

export const SessionConfigOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  /** ACP's category (`mode`, `model`, `thought_level`, `model_config`, or the agent's own), when given. */
  category: z.string().optional(),
  /** `select` or `boolean` (ACP today); another type is kept and shown read-only. */
  type: z.string(),
  current_value: ConfigValueSchema,
  /** A `select`'s choices; ACP's grouped options are flattened in their order. */
  options: z.array(SessionConfigSelectOptionSchema).optional(),
});
export type SessionConfigOption = z.infer<typeof SessionConfigOptionSchema>;

export const AvailableCommandSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** What to type after the command (ACP `input.hint`). */
  input_hint: z.string().optional(),
});
export type AvailableCommand = z.infer<typeof AvailableCommandSchema>;

export const SessionUsageSchema = z.object({
  /** Tokens in the context window now. */
  used: z.number().nonnegative(),
  /** The context window's size in tokens. */
  size: z.number().nonnegative(),
  /** What the session has cost so far, when the agent says. */
  cost: z.object({ amount: z.number(), currency: z.string() }).optional(),
});
export type SessionUsage = z.infer<typeof SessionUsageSchema>;

/** The agent-stream `session.update` kinds that change session state rather than the transcript. */
export const CurrentModeUpdateSchema = z.object({ kind: z.literal("current_mode_update"), current_mode_id: z.string() });
export const ConfigOptionUpdateSchema = z.object({ kind: z.literal("config_option_update"), config_options: z.array(SessionConfigOptionSchema) });
export const AvailableCommandsUpdateSchema = z.object({
  kind: z.literal("available_commands_update"),
  available_commands: z.array(AvailableCommandSchema),
});
export const UsageUpdateSchema = z.object({ kind: z.literal("usage_update"), usage: SessionUsageSchema });
/** `title: null` clears the title; absent leaves it as it is. */
export const SessionInfoUpdateSchema = z.object({ kind: z.literal("session_info_update"), title: z.string().nullable().optional() });

export const SessionStateUpdateSchema = z.discriminatedUnion("kind", [
  CurrentModeUpdateSchema,
  ConfigOptionUpdateSchema,
  AvailableCommandsUpdateSchema,
  UsageUpdateSchema,
  SessionInfoUpdateSchema,
]);
export type SessionStateUpdate = z.infer<typeof SessionStateUpdateSchema>;
export const SESSION_STATE_UPDATE_KINDS = [
  "current_mode_update",
  "config_option_update",
  "available_commands_update",
  "usage_update",
  "session_info_update",
] as const satisfies readonly SessionStateUpdate["kind"][];

/** What `session/new` and `session/load` said about the session (absent: the agent said nothing). */
export const OpenedSessionStateSchema = z.object({
  modes: SessionModesSchema.nullable().optional(),
  config_options: z.array(SessionConfigOptionSchema).nullable().optional(),
});

/** `POST /api/v1/sessions/:id/mode`. */
export const SetModeBodySchema = z.object({ mode_id: z.string().min(1).max(256) });
export type SetModeBody = z.infer<typeof SetModeBodySchema>;

/** `POST /api/v1/sessions/:id/config-options`. */
export const SetConfigOptionBodySchema = z.object({ config_id: z.string().min(1).max(256), value: z.union([z.string().max(1024), z.boolean()]) });
export type SetConfigOptionBody = z.infer<typeof SetConfigOptionBodySchema>;

/** The answer of `POST /config-options` and of agentctl's `agent.session.set_config_option`. */
export const ConfigOptionsResultSchema = z.object({ config_options: z.array(SessionConfigOptionSchema) });
export type ConfigOptionsResult = z.infer<typeof ConfigOptionsResultSchema>;
