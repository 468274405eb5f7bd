/**
 * The words that tell the operator what a question wants and why Submit waits, as pure rules both
 * sources share (the kandev tool and elicitations render in the same overlay; only the facts
 * differ). One rule, one place: the components only translate what these functions return.
 *
 * Hint line, per question: how to answer it, then whether it must be answered.
 * - options and a multi-select (elicitations only, AC-55) -> "pick any"; other options -> "pick one";
 *   no options (AC-56) -> "type an answer";
 * - a text box beside options says what typing does: on the kandev tool it replaces the pick
 *   ("or type your own"), on an elicitation it goes alongside, to the companion key (A2: "or both");
 * - required: every kandev-tool question must be answered (DECISIONS F3); an elicitation question
 *   never is (its schema has no `required` array, AC-12b/AC-12h), so it is marked optional.
 */
import type { ClarificationSource, Question } from "@kandev/protocol";
import { isAnswered, type Draft } from "./answer-model";
import { textBoxFor } from "./overlay-state";

export type GuidanceKey = "pickOne" | "pickAny" | "pickOneOrType" | "pickOneAndType" | "pickAnyAndType" | "typeAnswer";

export interface Guidance {
  /** `clarification.guidance.<key>` */
  key: GuidanceKey;
  required: boolean;
}

export function questionGuidance(source: ClarificationSource, question: Question): Guidance {
  const required = source === "kandev_tool";
  const box = textBoxFor(source, question);
  if (question.options.length === 0) return { key: "typeAnswer", required };
  const multi = source === "elicitation" && question.kind === "multi";
  switch (box) {
    case "none":
    case "answer":
      return { key: multi ? "pickAny" : "pickOne", required };
    case "custom":
      return { key: "pickOneOrType", required };
    case "companion":
      return { key: multi ? "pickAnyAndType" : "pickOneAndType", required };
    default: {
      const unreachable: never = box;
      throw new Error(`unknown text box ${String(unreachable)}`);
    }
  }
}

/** Why Submit is disabled, when it is (`clarification.submitBlocked.<key>`); null when it is not. */
export type SubmitBlocker = { key: "answerThis" } | { key: "answerQuestions"; numbers: number[] };

/**
 * Only a kandev-tool bundle waits (every question answered, DECISIONS F3); an elicitation's Submit
 * is always enabled (AC-12b). A lone question says "answer this", a bundle names the 1-based
 * numbers of the questions still open, as the stepper counts them.
 */
export function submitBlocker(source: ClarificationSource, questions: readonly Question[], draft: Draft): SubmitBlocker | null {
  if (source === "elicitation") return null;
  const open = questions.flatMap((q, i) => (isAnswered(draft[q.id]) ? [] : [i + 1]));
  if (open.length === 0) return null;
  return questions.length === 1 ? { key: "answerThis" } : { key: "answerQuestions", numbers: open };
}

/** The keyboard line under the questions (`clarification.keys.<key>`): Enter on an option differs by source (keyboard.ts). */
export function keysHint(source: ClarificationSource): "tool" | "form" {
  return source === "kandev_tool" ? "tool" : "form";
}
