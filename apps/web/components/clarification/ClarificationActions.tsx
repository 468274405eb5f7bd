"use client";
import { useTranslation } from "react-i18next";
import { isLastStep, submittable, type OverlayState } from "../../lib/clarification/overlay-state";

/**
 * Skip on the left (rejects the whole bundle: a decline for elicitations, AC-14); Back, Next and
 * Submit on the right. Submit is always enabled for an elicitation (nothing answered sends
 * `accept {}`, AC-12b) and waits for every answer on the kandev tool.
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
  const { t } = useTranslation();
  const last = isLastStep(state);
  const canSend = submittable(state) && !busy;
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
        {state.source === "kandev_tool" ? t("clarification.hintTool") : t("clarification.hintForm")}
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
          data-testid="clarification-submit"
        >
          {busy ? t("clarification.submitting") : t("clarification.submit")}
        </button>
      </div>
    </div>
  );
}
