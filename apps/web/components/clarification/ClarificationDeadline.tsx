"use client";
import { useTranslation } from "react-i18next";
import { secondsLeft } from "../../lib/clarification/answer-model";
import { deadlineUrgency, formatCountdown } from "../../lib/clarification/countdown";
import { useNow } from "../../lib/use-now";

/** Time left before the question answers itself (a decline); ticks every second. */
export function ClarificationDeadline({ deadline }: { deadline: string }) {
  const { t } = useTranslation();
  const now = useNow(1_000);
  const left = secondsLeft(deadline, now.getTime());
  if (left === null) return null;
  const time = formatCountdown(left);
  return (
    <span
      className={`clarification__deadline clarification__deadline--${deadlineUrgency(left)}`}
      data-testid="clarification-deadline"
      data-seconds={left}
      role="timer"
      aria-label={t("clarification.deadlineLabel", { time })}
    >
      <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
        <circle cx="7" cy="7" r="5.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
        <path d="M7 4.2V7l1.9 1.3" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
      </svg>
      <span aria-hidden="true">{t("clarification.deadline", { time })}</span>
    </span>
  );
}
