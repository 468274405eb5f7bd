import { z } from "zod";
import { ClarificationSourceSchema, ClarificationStatusSchema, ResolutionSchema } from "./entities.js";
import { ClarificationAnswerSchema, QuestionSchema } from "./questions.js";

/**
 * `metadata` of a `clarification_request` message (docs/API.md): everything the answer overlay
 * needs, so it branches on `source` and each question's `kind` rather than on guesses (DECISIONS
 * F6), plus how the clarification ended. The backend keeps it in step with the clarification record.
 */
export const ClarificationMetadataSchema = z.object({
  pending_id: z.string(),
  source: ClarificationSourceSchema,
  status: ClarificationStatusSchema,
  /** Who or what settled it and when; null while pending. */
  resolution: ResolutionSchema.nullable(),
  /** ISO-8601 time at which the question expires on its own, if it does. */
  deadline: z.string().nullable(),
  tool_call_id: z.string().nullable(),
  questions: z.array(QuestionSchema),
  /** An operator's answer that arrived after the asking agent was gone: kept, never delivered. */
  undelivered_answer: ClarificationAnswerSchema.extend({ at: z.string() }).optional(),
  /** The reason an operator gave when skipping (rejecting) the bundle. */
  reject_reason: z.string().optional(),
});
export type ClarificationMetadata = z.infer<typeof ClarificationMetadataSchema>;

/** 200 answer of `POST /api/v1/clarifications/:pendingId/respond`. */
export const ClarificationRespondResultSchema = z.object({
  success: z.literal(true),
  status: ClarificationStatusSchema,
});
export type ClarificationRespondResult = z.infer<typeof ClarificationRespondResultSchema>;

/** Which notifications the board sends (`GET /api/v1/notification-settings`). */
export const NotificationSettingsSchema = z.object({
  /** `session.clarification_requested`; on by default. */
  clarification_requested: z.boolean(),
  /** `session.turn_finished`; off by default (opt-in). */
  turn_finished: z.boolean(),
});
export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>;

/** `PATCH /api/v1/notification-settings`: any subset of the settings; unknown keys are refused. */
export const PatchNotificationSettingsBodySchema = NotificationSettingsSchema.partial().strict();
export type PatchNotificationSettingsBody = z.infer<typeof PatchNotificationSettingsBodySchema>;
