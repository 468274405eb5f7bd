"use client";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { keysHint, submitBlocker } from "../../lib/clarification/guidance";
import { isLastStep, submittable, type OverlayState } from "../../lib/clarification/overlay-state";

/**
 * Skip on the left (rejects the whole bundle: a decline for elicitations, AC-14); Back, Next and
 * Submit on the right. Submit is always enabled for an elicitation (nothing answered sends
 * `accept {}`, AC-12b) and waits for every answer on the kandev tool; a disabled Submit says why,
 * in visible text the button is described by.
 */
export function ClarificationActions({
  state,
  busy,
  onBack,
  onNext,
  onSubmit,
  onSkip,
}: {
  state: OverlayState;
  busy: boolean;
  onBack: () => void;
  onNext: () => void;
  onSubmit: () => void;
  onSkip: () => void;
}) {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const last = isLastStep(state);
  const canSend = submittable(state) && !busy;
  const blocker = busy ? null : submitBlocker(state.source, state.questions, state.draft);
  const blockerId = `${ids}-blocked`;
  const blockerText =
    blocker === null
      ? null
      : blocker.key === "answerThis"
        ? t("clarification.submitBlocked.answerThis")
        : t("clarification.submitBlocked.answerQuestions", {
            count: blocker.numbers.length,
            list: new Intl.ListFormat(i18n.language, { type: "conjunction" }).format(blocker.numbers.map(String)),
          });
  return (
    <div className="clarification__actions">
      <button
        type="button"
        className="button button--ghost"
        onClick={onSkip}
        disabled={busy}
        title={t("clarification.skipTitle")}
        data-testid="clarification-skip"
      >
        {t("clarification.skip")}
      </button>
      <span className="clarification__hint" aria-hidden="true">
        {t(`clarification.keys.${keysHint(state.source)}`)}
      </span>
      <div className="clarification__nav">
        {state.step > 0 ? (
          <button type="button" className="button button--ghost" onClick={onBack} disabled={busy} data-testid="clarification-back">
            {t("clarification.back")}
          </button>
        ) : null}
        {!last ? (
          <button type="button" className="button button--primary" onClick={onNext} disabled={busy} data-testid="clarification-next">
            {t("clarification.next")}
          </button>
        ) : null}
        <button
          type="button"
          className={`button ${last ? "button--primary" : "button--ghost"}`}
          onClick={onSubmit}
          disabled={!canSend}
          aria-describedby={blockerText ? blockerId : undefined}
          data-testid="clarification-submit"
        >
          {busy ? t("clarification.submitting") : t("clarification.submit")}
        </button>
      </div>
      {blockerText ? (
        <p className="clarification__blocked" id={blockerId} data-testid="clarification-submit-reason">
          {blockerText}
        </p>
      ) : null}
    </div>
  );
}
