import { z } from "zod";

/** Upper bounds shared by every validator so no peer can make another do unbounded work. */
export const LIMITS = {
  maxQuestions: 64,
  maxOptionsPerQuestion: 100,
  maxCustomTextChars: 10_000,
  maxIdChars: 256,
  maxLabelChars: 2_000,
  maxPromptChars: 20_000,
} as const;

export const QuestionKindSchema = z.enum(["single", "multi", "text"]);
export type QuestionKind = z.infer<typeof QuestionKindSchema>;

export const OptionSchema = z.object({
  id: z.string().max(LIMITS.maxIdChars),
  label: z.string().max(LIMITS.maxLabelChars),
  description: z.string().max(LIMITS.maxPromptChars).optional(),
});
export type Option = z.infer<typeof OptionSchema>;

/** The free-text companion of a question (the bridge's `question_N_custom`), with its own labels. */
export const CompanionSchema = z.object({
  id: z.string().max(LIMITS.maxIdChars),
  title: z.string().max(LIMITS.maxLabelChars).optional(),
  description: z.string().max(LIMITS.maxPromptChars).optional(),
});
export type Companion = z.infer<typeof CompanionSchema>;

/**
 * One question as the operator sees it. For elicitations `id` is the schema property key verbatim
 * and `options[].id` the enum const verbatim.
 */
export const QuestionSchema = z.object({
  id: z.string().min(1).max(LIMITS.maxIdChars),
  kind: QuestionKindSchema,
  title: z.string().max(LIMITS.maxLabelChars).optional(),
  prompt: z.string().max(LIMITS.maxPromptChars),
  options: z.array(OptionSchema).max(LIMITS.maxOptionsPerQuestion),
  companion: CompanionSchema.optional(),
});
export type Question = z.infer<typeof QuestionSchema>;

export const AnswerSchema = z.object({
  question_id: z.string().min(1).max(LIMITS.maxIdChars),
  selected_options: z.array(z.string().max(LIMITS.maxIdChars)).max(LIMITS.maxOptionsPerQuestion),
  custom_text: z.string().max(LIMITS.maxCustomTextChars).optional(),
});
export type Answer = z.infer<typeof AnswerSchema>;

/** What an operator submits for one clarification (REST body and agent-stream payload alike). */
export const ClarificationAnswerSchema = z.object({
  answers: z.array(AnswerSchema).max(LIMITS.maxQuestions),
  rejected: z.boolean().optional(),
  reject_reason: z.string().max(LIMITS.maxCustomTextChars).optional(),
});
export type ClarificationAnswer = z.infer<typeof ClarificationAnswerSchema>;
