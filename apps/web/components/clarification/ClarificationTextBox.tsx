"use client";
import { useId } from "react";
import type { ClarificationSource, Question } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { customTextLimit } from "../../lib/clarification/answer-model";
import type { TextBox } from "../../lib/clarification/overlay-state";

/**
 * Where the operator types. For the kandev tool it is the custom answer that replaces a pick; for
 * an elicitation it is the question's companion, labelled with the companion's own title and
 * description (A2), or the answer itself when the question has no options. Enter sends (handled by
 * the overlay), Shift+Enter is a new line; a counter shows the cap.
 */
export function ClarificationTextBox({
  kind,
  source,
  question,
  value,
  disabled,
  describedBy,
  onChange,
}: {
  kind: Exclude<TextBox, "none">;
  source: ClarificationSource;
  question: Question;
  value: string;
  disabled: boolean;
  describedBy?: string;
  onChange: (text: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const max = customTextLimit(source);
  const fmt = new Intl.NumberFormat(i18n.language);
  const companion = kind === "companion" ? question.companion : undefined;
  const label =
    kind === "custom"
      ? t("clarification.customLabel")
      : kind === "answer"
        ? t("clarification.answerLabel")
        : (companion?.title ?? t("clarification.noteLabel"));
  const placeholder =
    kind === "custom"
      ? t("clarification.customPlaceholder")
      : kind === "answer"
        ? t("clarification.answerPlaceholder")
        : t("clarification.notePlaceholder");
  const helpId = companion?.description ? `${ids}-help` : undefined;
  const counterId = `${ids}-counter`;
  const near = value.length >= max * 0.9;
  return (
    <div className={`cq__text cq__text--${kind}`}>
      <label className="cq__text-label" htmlFor={`${ids}-input`}>
        {label}
      </label>
      {companion?.description ? (
        <p className="cq__text-help" id={helpId}>
          {companion.description}
        </p>
      ) : null}
      <textarea
        id={`${ids}-input`}
        className="cq__input"
        data-testid={`clarification-custom-${question.id}`}
        value={value}
        maxLength={max}
        rows={2}
        placeholder={placeholder}
        disabled={disabled}
        aria-describedby={[describedBy, helpId, counterId].filter(Boolean).join(" ")}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className={`cq__counter${near ? " cq__counter--near" : ""}`} id={counterId} data-testid={`clarification-counter-${question.id}`}>
        {t("clarification.counter", { used: fmt.format(value.length), max: fmt.format(max) })}
      </p>
    </div>
  );
}
