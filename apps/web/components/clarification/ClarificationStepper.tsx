"use client";
import { useTranslation } from "react-i18next";
import { answeredSteps, type OverlayState } from "../../lib/clarification/overlay-state";

/** "Question 2 of 3" and one dot per question (answered ones filled); a dot jumps to its question. */
export function ClarificationStepper({ state, onGo }: { state: OverlayState; onGo: (step: number) => void }) {
  const { t } = useTranslation();
  const answered = answeredSteps(state);
  return (
    <div className="clarification__stepper" data-testid="clarification-stepper">
      <span className="clarification__step" aria-live="polite">
        {t("clarification.step", { current: state.step + 1, total: state.questions.length })}
      </span>
      <ol className="clarification__dots">
        {state.questions.map((q, i) => (
          <li key={q.id}>
            <button
              type="button"
              tabIndex={-1}
              className={`clarification__dot${answered[i] ? " clarification__dot--answered" : ""}`}
              aria-current={i === state.step ? "step" : undefined}
              aria-label={answered[i] ? t("clarification.goToStepAnswered", { n: i + 1 }) : t("clarification.goToStep", { n: i + 1 })}
              onClick={() => onGo(i)}
            />
          </li>
        ))}
      </ol>
    </div>
  );
}
