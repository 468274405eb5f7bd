"use client";
import { useId } from "react";
import type { ClarificationSource, Question } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import type { QuestionDraft } from "../../lib/clarification/answer-model";
import { questionGuidance } from "../../lib/clarification/guidance";
import { textBoxFor } from "../../lib/clarification/overlay-state";
import { ClarificationOptions } from "./ClarificationOptions";
import { ClarificationTextBox } from "./ClarificationTextBox";

/**
 * One question: its title and prompt (agent text, shown as text), the hint line (how to answer,
 * required or optional: guidance.ts), its options, and a text box where an answer can be typed.
 * A question without options is the text box alone (AC-56).
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
  const { t } = useTranslation();
  const ids = useId();
  const promptId = `${ids}-prompt`;
  const hintId = `${ids}-hint`;
  const guidance = questionGuidance(source, question);
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
      <p className="cq__hint" id={hintId} data-testid={`clarification-hint-${question.id}`} data-guidance={guidance.key}>
        {t(`clarification.guidance.${guidance.key}`)}
        <span aria-hidden="true">{" · "}</span>
        <span className={`cq__need${guidance.required ? " cq__need--required" : ""}`} data-required={guidance.required ? "true" : "false"}>
          {guidance.required ? t("clarification.required") : t("clarification.optional")}
        </span>
      </p>
      {question.options.length > 0 ? (
        <ClarificationOptions
          questionId={question.id}
          options={question.options}
          selected={selected}
          multi={multi}
          labelledBy={promptId}
          describedBy={hintId}
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
          describedBy={box === "answer" ? `${promptId} ${hintId}` : undefined}
          onChange={onText}
        />
      ) : null}
    </div>
  );
}
