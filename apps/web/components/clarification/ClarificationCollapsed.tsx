"use client";
import { useTranslation } from "react-i18next";
import { ClarificationDeadline } from "./ClarificationDeadline";
import { QuestionGlyph } from "./QuestionGlyph";

/** The overlay after Escape: a bar that keeps the question in sight; nothing was sent. */
export function ClarificationCollapsed({ headingId, deadline, onExpand }: { headingId: string; deadline: string | null; onExpand: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="clarification__bar">
      <QuestionGlyph />
      <p className="clarification__bar-text" id={headingId}>
        {t("clarification.collapsedText")}
      </p>
      {deadline ? <ClarificationDeadline deadline={deadline} /> : null}
      <button type="button" className="button button--primary" onClick={onExpand} data-expand="true" data-testid="clarification-expand">
        {t("clarification.show")}
      </button>
    </div>
  );
}
