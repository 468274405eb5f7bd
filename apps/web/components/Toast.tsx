"use client";
import { useEffect, useRef } from "react";
import Link from "next/link";
import { useTranslation } from "react-i18next";
import type { ToastItem } from "./ToastStack";

const LIFETIME_MS = 15_000;

/** One notification: what happened, on which task, and a link there. Goes away on its own. */
export function Toast({ toast, onDismiss }: { toast: ToastItem; onDismiss: () => void }) {
  const { t } = useTranslation();
  // The timer belongs to this toast's lifetime, not to the identity of the callback.
  const dismiss = useRef(onDismiss);
  useEffect(() => {
    dismiss.current = onDismiss;
  });
  useEffect(() => {
    const timer = setTimeout(() => dismiss.current(), LIFETIME_MS);
    return () => clearTimeout(timer);
  }, []);
  const question = toast.kind === "session.clarification_requested";
  return (
    <div
      className={`toast${question ? " toast--question" : ""}`}
      data-testid="toast"
      data-kind={toast.kind}
      data-task-id={toast.taskId}
      role="status"
    >
      <span className="toast__glyph" aria-hidden="true">
        {question ? (
          <svg width="16" height="16" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
            <path d="M7.6 7.7a2.5 2.5 0 1 1 3.6 2.2c-.8.4-1.2.9-1.2 1.7v.4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            <circle cx="10" cy="14.8" r="1.15" fill="currentColor" />
          </svg>
        ) : (
          <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <path d="m4 8.3 2.6 2.6L12 5.4" fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        )}
      </span>
      <div className="toast__body">
        <p className="toast__text">{toast.text}</p>
        <p className="toast__task">{toast.title}</p>
        <Link className="toast__link" href={`/tasks/${toast.taskId}`} data-testid="toast-open">
          {t("notifications.openTask")}
        </Link>
      </div>
      <button type="button" className="icon-button toast__close" onClick={onDismiss} aria-label={t("common.dismiss")}>
        <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
          <path d="m3.5 3.5 7 7m0-7-7 7" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
