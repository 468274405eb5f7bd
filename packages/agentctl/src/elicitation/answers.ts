/**
 * Operator answer -> ACP `elicitation/create` response (spec "Response mapping", DECISIONS F10,
 * F12, A2).
 *
 * agentctl is the only validator of an elicitation answer (the backend forwards every submission),
 * so every shape the questions cannot hold is a VALIDATION_ERROR and nothing is sent. `content` is
 * sparse: a key appears only when it carries an answer, never as null or "".
 */
import type { ClarificationAnswer, Question } from "@kandev/protocol";
import { LIMITS, ProtocolError } from "@kandev/protocol";

/** Value types agentctl ever writes into `content`. */
export type ContentValue = string | string[];

/** ACP `elicitation/create` response as agentctl sends it. */
export type ElicitationResponse = { action: "accept"; content: Record<string, ContentValue> } | { action: "decline" } | { action: "cancel" };

/** One answer after validation: selections in declaration order, text trimmed (or absent). */
interface CheckedAnswer {
  question: Question;
  selected: string[];
  text: string | null;
}

function invalid(message: string, details?: unknown): ProtocolError {
  return new ProtocolError("VALIDATION_ERROR", message, details);
}

/** Short, quoted rendering of an untrusted id for an error message. */
function quote(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/**
 * Checks every answer against the pending's questions (F10) and normalises it: duplicate picks are
 * dropped and picks are put in option declaration order (F12), text is trimmed and whitespace-only
 * text counts as none. Throws ProtocolError VALIDATION_ERROR on the first problem.
 */
export function checkAnswers(questions: readonly Question[], answer: ClarificationAnswer): CheckedAnswer[] {
  if (answer.rejected === true && answer.answers.length > 0) {
    throw invalid("rejected: true cannot be combined with answers; send one or the other");
  }
  const byId = new Map(questions.map((q) => [q.id, q] as const));
  const seen = new Set<string>();
  const checked: CheckedAnswer[] = [];
  for (const a of answer.answers) {
    const question = byId.get(a.question_id);
    if (question === undefined) throw invalid(`unknown question_id ${quote(a.question_id)}`);
    if (seen.has(a.question_id)) throw invalid(`question ${quote(a.question_id)} is answered more than once`);
    seen.add(a.question_id);
    if (a.custom_text !== undefined && a.custom_text.length > LIMITS.maxCustomTextChars) {
      throw invalid(`custom_text for ${quote(a.question_id)} exceeds ${LIMITS.maxCustomTextChars} characters`);
    }
    const picked = new Set<string>();
    for (const id of a.selected_options) {
      if (!question.options.some((o) => o.id === id)) {
        throw invalid(`${quote(id)} is not an option of question ${quote(a.question_id)}`);
      }
      picked.add(id);
    }
    if (question.kind === "single" && picked.size > 1) {
      throw invalid(`question ${quote(a.question_id)} is single-select but ${picked.size} options were selected`);
    }
    const trimmed = a.custom_text?.trim() ?? "";
    checked.push({
      question,
      selected: question.options.filter((o) => picked.has(o.id)).map((o) => o.id),
      text: trimmed.length > 0 ? trimmed : null,
    });
  }
  return checked;
}

/** Adds an own enumerable key even when it is `__proto__` (schema keys are arbitrary). */
function put(content: Record<string, ContentValue>, key: string, value: ContentValue): void {
  Object.defineProperty(content, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Builds `content` from checked answers:
 * - a selection goes to the question's key (a string, or an array for multi-select);
 * - text goes to the companion's key when the question has one (A2: together with the selection,
 *   so current bridges keep the pick and 0.65.0 still lets the text win);
 * - text with no companion goes to the question's own key only when it has no options, else it is
 *   dropped (the key is enum-constrained).
 */
export function buildContent(checked: readonly CheckedAnswer[]): Record<string, ContentValue> {
  const content: Record<string, ContentValue> = {};
  for (const { question, selected, text } of checked) {
    const first = selected[0];
    if (first !== undefined) put(content, question.id, question.kind === "multi" ? [...selected] : first);
    if (text === null) continue;
    if (question.companion !== undefined) put(content, question.companion.id, text);
    else if (question.options.length === 0) put(content, question.id, text);
  }
  return content;
}

/** The whole response mapping: reject -> decline, otherwise accept with sparse content. */
export function buildResponse(questions: readonly Question[], answer: ClarificationAnswer): ElicitationResponse {
  const checked = checkAnswers(questions, answer);
  if (answer.rejected === true) return { action: "decline" };
  return { action: "accept", content: buildContent(checked) };
}
