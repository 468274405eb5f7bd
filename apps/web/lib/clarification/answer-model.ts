/**
 * The answer overlay's model, as pure functions: what a click or a keystroke does to the draft,
 * when Submit is allowed, and what is sent. It branches on the record's `source` and each
 * question's `kind` (DECISIONS F6), never on guesses:
 * - `kandev_tool` keeps the behaviour that always shipped (AC-57): single-select, a selection and
 *   custom text exclude each other, every question must be answered.
 * - `elicitation` adds multi-select in declaration order (AC-55), text-only questions (AC-56), text
 *   alongside a selection (A2), and a Submit that is always enabled (AC-12b).
 */
import type { ClarificationAnswer, ClarificationSource, Question } from "@kandev/protocol";

export interface QuestionDraft {
  /** Selected option ids, kept in declaration order. */
  selected: string[];
  customText: string;
}
export type Draft = Record<string, QuestionDraft>;

/** The kandev tool's cap (shown with a counter); elicitations allow what agentctl accepts. */
export function customTextLimit(source: ClarificationSource): number {
  return source === "kandev_tool" ? 2_000 : 10_000;
}

export function emptyDraft(questions: Question[]): Draft {
  return Object.fromEntries(questions.map((q) => [q.id, { selected: [], customText: "" }]));
}

function inDeclarationOrder(question: Question, ids: Iterable<string>): string[] {
  const wanted = new Set(ids);
  return question.options.filter((o) => wanted.has(o.id)).map((o) => o.id);
}

/** Clicking (or pressing the number of) an option. */
export function toggleOption(draft: Draft, source: ClarificationSource, question: Question, optionId: string): Draft {
  if (!question.options.some((o) => o.id === optionId)) return draft;
  const current = draft[question.id] ?? { selected: [], customText: "" };
  let next: QuestionDraft;
  if (question.kind === "multi" && source === "elicitation") {
    const set = new Set(current.selected);
    if (set.has(optionId)) set.delete(optionId);
    else set.add(optionId);
    next = { ...current, selected: inDeclarationOrder(question, set) };
  } else if (source === "kandev_tool") {
    // Picking clears typed text: the two exclude each other on this path.
    next = { selected: [optionId], customText: "" };
  } else {
    const deselect = current.selected.length === 1 && current.selected[0] === optionId;
    next = { ...current, selected: deselect ? [] : [optionId] };
  }
  return { ...draft, [question.id]: next };
}

/** Typing in a question's text box. */
export function setCustomText(draft: Draft, source: ClarificationSource, question: Question, text: string): Draft {
  const clipped = text.slice(0, customTextLimit(source));
  const current = draft[question.id] ?? { selected: [], customText: "" };
  const next: QuestionDraft =
    source === "kandev_tool" ? { selected: clipped.trim() ? [] : current.selected, customText: clipped } : { ...current, customText: clipped };
  return { ...draft, [question.id]: next };
}

export function isAnswered(d: QuestionDraft | undefined): boolean {
  return !!d && (d.selected.length > 0 || d.customText.trim().length > 0);
}

/** Kandev-tool bundles need every question answered; an elicitation may be sent as it is. */
export function canSubmit(questions: Question[], source: ClarificationSource, draft: Draft): boolean {
  if (source === "elicitation") return true;
  return questions.every((q) => isAnswered(draft[q.id]));
}

/** Builds the body of `POST /clarifications/:id/respond`. Unanswered questions send nothing. */
export function buildAnswer(questions: Question[], source: ClarificationSource, draft: Draft): ClarificationAnswer {
  const answers = questions.flatMap((q) => {
    const d = draft[q.id];
    if (!isAnswered(d) || !d) return [];
    const text = d.customText.trim();
    const selected = inDeclarationOrder(q, d.selected);
    if (source === "kandev_tool") {
      return [
        text && selected.length === 0
          ? { question_id: q.id, selected_options: [], custom_text: text }
          : { question_id: q.id, selected_options: selected.slice(0, 1) },
      ];
    }
    return [text ? { question_id: q.id, selected_options: selected, custom_text: text } : { question_id: q.id, selected_options: selected }];
  });
  return { answers };
}

/** Skip: the whole bundle is rejected (decline for elicitations, AC-14). */
export function skipAnswer(): ClarificationAnswer {
  return { answers: [], rejected: true };
}

/** Seconds left before the answer deadline, never negative; null when there is none. */
export function secondsLeft(deadline: string | null | undefined, nowMs: number): number | null {
  if (!deadline) return null;
  const t = Date.parse(deadline);
  if (Number.isNaN(t)) return null;
  return Math.max(0, Math.floor((t - nowMs) / 1000));
}
