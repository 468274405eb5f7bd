"use client";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/** The box that opens under a diff line to write a review comment. */
export function CommentForm({ where, onSave, onCancel }: { where: string; onSave: (body: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [body, setBody] = useState("");
  const input = useRef<HTMLTextAreaElement>(null);
  // The form opens because the operator asked to comment on this line: the cursor goes where they will type.
  useEffect(() => input.current?.focus(), []);
  return (
    <div className="review-form">
      <label className="review-form__label">
        {t("review.commentOn", { where })}
        <textarea data-testid="review-comment-input" ref={input} value={body} rows={3} onChange={(e) => setBody(e.target.value)} />
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
