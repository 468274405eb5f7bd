"use client";
import { useId } from "react";
import type { ClarificationSource, Question } from "@kandev/protocol";
import type { QuestionDraft } from "../../lib/clarification/answer-model";
import { textBoxFor } from "../../lib/clarification/overlay-state";
import { ClarificationOptions } from "./ClarificationOptions";
import { ClarificationTextBox } from "./ClarificationTextBox";

/**
 * One question: its title and prompt (agent text, shown as text), its options, and a text box
 * where an answer can be typed. A question without options is the text box alone (AC-56).
 */
export function ClarificationQuestion({
  source,
  question,
  draft,
  disabled,
  onPick,
  onText,
}: {
  source: ClarificationSource;
  question: Question;
  draft: QuestionDraft | undefined;
  disabled: boolean;
  onPick: (index: number) => void;
  onText: (text: string) => void;
}) {
  const ids = useId();
  const promptId = `${ids}-prompt`;
  const selected = draft?.selected ?? [];
  const text = draft?.customText ?? "";
  const box = textBoxFor(source, question);
  const multi = source === "elicitation" && question.kind === "multi";

  return (
    <div className="cq" data-testid={`clarification-question-${question.id}`} data-kind={question.kind}>
      {question.title ? <p className="cq__title">{question.title}</p> : null}
      <p className="cq__prompt" id={promptId}>
        {question.prompt}
      </p>
      {question.options.length > 0 ? (
        <ClarificationOptions
          questionId={question.id}
          options={question.options}
          selected={selected}
          multi={multi}
          labelledBy={promptId}
          disabled={disabled}
          onPick={onPick}
        />
      ) : null}
      {box !== "none" ? (
        <ClarificationTextBox
          kind={box}
          source={source}
          question={question}
          value={text}
          disabled={disabled}
          describedBy={box === "answer" ? promptId : undefined}
          onChange={onText}
        />
      ) : null}
    </div>
  );
}
