"use client";
import type { NotificationKind } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { Toast } from "./Toast";

export interface ToastItem {
  id: string;
  kind: NotificationKind;
  taskId: string;
  /** The task's title. */
  title: string;
  /** What happened, already translated. */
  text: string;
}

/** In-app notifications, newest last, in a polite live region in the corner. */
export function ToastStack({ toasts, onDismiss }: { toasts: ToastItem[]; onDismiss: (id: string) => void }) {
  const { t } = useTranslation();
  return (
    <section className="toasts" aria-label={t("notifications.region")} aria-live="polite" data-testid="toasts">
      {toasts.map((toast) => (
        <Toast key={toast.id} toast={toast} onDismiss={() => onDismiss(toast.id)} />
      ))}
    </section>
  );
}
