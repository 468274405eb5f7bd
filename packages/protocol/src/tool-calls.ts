import { z } from "zod";
import { MessageSchema } from "./entities.js";

/**
 * What a tool call carries beyond its title, as agentctl forwards it and a `tool_call` message keeps
 * it in `metadata`. ACP names are turned to snake_case; large parts are capped by agentctl (see
 * TOOL_CALL_CAPS) and a `truncated` flag says so, so a reader never mistakes a cut text for the whole.
 */
export const TOOL_CALL_CAPS = {
  /** Each text block, in UTF-16 code units (≈ bytes for ASCII). */
  textChars: 64 * 1024,
  /** Each side (old, new) of a diff. */
  diffSideChars: 256 * 1024,
  /** `raw_input` / `raw_output`, measured as their JSON text. */
  rawChars: 64 * 1024,
} as const;

export const ToolCallContentSchema = z.discriminatedUnion("type", [
  /** Text output; other ACP content blocks (image, audio, resource) arrive as a named placeholder or link. */
  z.object({ type: z.literal("text"), text: z.string(), truncated: z.boolean().optional() }),
  /** A file edit: `old_text` is null for a new file. `truncated` when either side was cut. */
  z.object({
    type: z.literal("diff"),
    path: z.string(),
    old_text: z.string().nullable(),
    new_text: z.string(),
    truncated: z.boolean().optional(),
  }),
  /** A terminal the agent created through the client (its output is not streamed to the board). */
  z.object({ type: z.literal("terminal"), terminal_id: z.string() }),
]);
export type ToolCallContent = z.infer<typeof ToolCallContentSchema>;

export const ToolCallLocationSchema = z.object({ path: z.string(), line: z.number().int().optional() });
export type ToolCallLocation = z.infer<typeof ToolCallLocationSchema>;

/**
 * The optional details shared by a `tool_call` and a `tool_call_update` event. In an update, a field
 * that is absent keeps its earlier value; `content` and `locations`, when present, replace the list whole.
 * `raw_input`/`raw_output` are the agent's JSON as sent; when its JSON text is over the cap it becomes
 * that text cut at the cap (a string) and `raw_input_truncated`/`raw_output_truncated` is true.
 */
export const ToolCallDetailsShape = {
  content: z.array(ToolCallContentSchema).optional(),
  locations: z.array(ToolCallLocationSchema).optional(),
  raw_input: z.unknown().optional(),
  raw_input_truncated: z.boolean().optional(),
  raw_output: z.unknown().optional(),
  raw_output_truncated: z.boolean().optional(),
};

/**
 * `metadata` of a `tool_call` message: what the board knows of the call after every update so far.
 * Passthrough: older rows and future fields are kept, not stripped.
 */
export const ToolCallMetadataSchema = z.looseObject({
  tool_call_id: z.string(),
  title: z.string(),
  status: z.string(),
  tool_kind: z.string().optional(),
  ...ToolCallDetailsShape,
});
export type ToolCallMetadata = z.infer<typeof ToolCallMetadataSchema>;

/** One entry of an agent's plan (ACP `PlanEntry`); priority high|medium|low, status pending|in_progress|completed. */
export const PlanEntrySchema = z.object({ content: z.string(), priority: z.string(), status: z.string() });
export type PlanEntry = z.infer<typeof PlanEntrySchema>;

/** `metadata` of a `plan` message: the turn's latest plan, replaced whole by each plan update (ACP rule). */
export const PlanMetadataSchema = z.looseObject({ entries: z.array(PlanEntrySchema) });
export type PlanMetadata = z.infer<typeof PlanMetadataSchema>;

/** `GET /api/v1/sessions/:id/plan`: the session's latest `plan` message, null before any plan. */
export const SessionPlanSchema = z.object({ plan: MessageSchema.nullable() });
export type SessionPlan = z.infer<typeof SessionPlanSchema>;
