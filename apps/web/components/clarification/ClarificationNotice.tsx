"use client";
import { useTranslation } from "react-i18next";
import type { NoticeKind } from "../../lib/clarification/pending";

/** Why a question left the screen without the operator's answer; stays until dismissed. */
export function ClarificationNotice({ kind, onDismiss }: { kind: NoticeKind; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={`clarification-notice clarification-notice--${kind}`} data-testid="clarification-notice" data-kind={kind} role="status">
      <svg className="clarification-notice__icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <circle cx="8" cy="8" r="6.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d="M8 7.2v3.6" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        <circle cx="8" cy="5" r="0.9" fill="currentColor" />
      </svg>
      <p className="clarification-notice__text">{t(`clarification.notices.${kind}`)}</p>
      <button type="button" className="icon-button" onClick={onDismiss} aria-label={t("common.dismiss")} data-testid="clarification-notice-dismiss">
        <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
          <path d="m3.5 3.5 7 7m0-7-7 7" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
