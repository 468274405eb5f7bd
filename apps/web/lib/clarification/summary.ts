import { AnswerSchema, type Answer } from "@kandev/protocol";
import type { ClarificationView } from "./pending";

export interface AnswerLine {
  questionId: string;
  /** The question's title, else its prompt. */
  question: string;
  /** Chosen option labels (declaration order), then the typed text, if any. */
  answer: string[];
}

/**
 * What the operator answered, for the transcript, read from `resolution.answers` (written by the
 * backend when an operator's answer settled the question). Unknown ids fall back to the raw id;
 * unreadable answers give no lines.
 */
export function answerSummary(view: ClarificationView): AnswerLine[] {
  const parsed = AnswerSchema.array().safeParse(view.resolution?.answers);
  if (!parsed.success) return [];
  const byId = new Map<string, Answer>(parsed.data.map((a) => [a.question_id, a]));
  return view.questions.flatMap((q) => {
    const a = byId.get(q.id);
    if (!a) return [];
    const labels = q.options.filter((o) => a.selected_options.includes(o.id)).map((o) => o.label);
    const unknown = a.selected_options.filter((id) => !q.options.some((o) => o.id === id));
    const text = a.custom_text?.trim();
    const answer = [...labels, ...unknown, ...(text ? [text] : [])];
    return answer.length > 0 ? [{ questionId: q.id, question: q.title ?? q.prompt, answer }] : [];
  });
}
