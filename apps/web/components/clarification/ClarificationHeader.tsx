"use client";
import { useTranslation } from "react-i18next";
import { ClarificationDeadline } from "./ClarificationDeadline";
import { QuestionGlyph } from "./QuestionGlyph";

/** Heading row: what is asked, how many wait after it, the time left, and Hide (Escape). */
export function ClarificationHeader({
  headingId,
  count,
  waitingAfter,
  deadline,
  onCollapse,
}: {
  headingId: string;
  count: number;
  waitingAfter: number;
  deadline: string | null;
  onCollapse: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="clarification__head">
      <QuestionGlyph />
      <div className="clarification__titles">
        <h2 className="clarification__heading" id={headingId}>
          {count > 1 ? t("clarification.headingBundle", { count }) : t("clarification.heading")}
        </h2>
        {waitingAfter > 0 ? (
          <p className="clarification__more" data-testid="clarification-more">
            {t("clarification.morePending", { count: waitingAfter })}
          </p>
        ) : null}
      </div>
      {deadline ? <ClarificationDeadline deadline={deadline} /> : null}
      <button
        type="button"
        className="icon-button"
        onClick={onCollapse}
        aria-label={t("clarification.hide")}
        title={t("clarification.hide")}
        data-testid="clarification-collapse"
      >
        <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <path d="m4 6 4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
    </div>
  );
}
