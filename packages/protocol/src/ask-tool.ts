import { z } from "zod";

/** Name of the board's own MCP tool that agents call to ask the operator structured questions. */
export const KANDEV_TOOL_NAME = "ask_user_question_kandev";

export const KandevToolOptionSchema = z.object({
  id: z.string().trim().min(1).max(64).optional().describe("Stable id for the option (optional)."),
  label: z.string().trim().min(1).max(200).describe("What the operator sees and picks."),
  description: z.string().max(1_000).optional().describe("One line explaining the option."),
});

export const KandevToolQuestionSchema = z.object({
  id: z.string().trim().min(1).max(64).optional().describe("Stable id for the question (optional)."),
  title: z.string().trim().max(200).optional().describe("A short header, a few words."),
  prompt: z.string().trim().min(1).max(2_000).describe("The question itself."),
  options: z.array(KandevToolOptionSchema).min(2, "each question needs 2-6 options").max(6, "each question needs 2-6 options"),
});

/**
 * Input of `ask_user_question_kandev` (DECISIONS F3, the rules that always shipped): 1-4 questions,
 * 2-6 options each. The operator may also type a custom answer instead of picking.
 */
export const KandevToolInputSchema = z.object({
  questions: z.array(KandevToolQuestionSchema).min(1, "ask 1-4 questions").max(4, "ask 1-4 questions"),
});
export type KandevToolInput = z.infer<typeof KandevToolInputSchema>;
