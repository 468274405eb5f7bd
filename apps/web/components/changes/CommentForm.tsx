"use client";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** The box that opens under a diff line to write a review comment. */
export function CommentForm({ where, onSave, onCancel }: { where: string; onSave: (body: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [body, setBody] = useState("");
  return (
    <div className="review-form">
      <label className="review-form__label">
        {t("review.commentOn", { where })}
        <textarea data-testid="review-comment-input" value={body} rows={3} autoFocus onChange={(e) => setBody(e.target.value)} />
      </label>
      <div className="review-form__actions">
        <button type="button" className="button button--ghost" onClick={onCancel}>
          {t("common.cancel")}
        </button>
        <button
          type="button"
          className="button button--primary"
          data-testid="review-comment-save"
          disabled={body.trim().length === 0}
          onClick={() => onSave(body.trim())}
        >
          {t("review.save")}
        </button>
      </div>
    </div>
  );
}
