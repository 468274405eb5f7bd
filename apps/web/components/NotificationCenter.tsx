"use client";
import { useEffect, useRef, useState } from "react";
import { usePathname, useRouter } from "next/navigation";
import type { Notification } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { beep } from "../lib/notifications/beep";
import { desktopPermission, showDesktop } from "../lib/notifications/desktop";
import { notificationPlan, taskIdFromPath } from "../lib/notifications/plan";
import { getLocalPrefs } from "../lib/notifications/prefs-store";
import { NO_UNREAD, addUnread, clearTask, unreadCount, withTaskUpdate, type Unread } from "../lib/notifications/unread";
import { bindDocumentTitle, titleStore } from "../lib/title-store";
import { useLiveNotifications, useLiveSubscription } from "./LiveProvider";
import { ToastStack, type ToastItem } from "./ToastStack";

const MAX_TOASTS = 3;

/**
 * Tells the operator when an agent needs them: a toast, a desktop notification (when allowed), a
 * sound (when wanted) and the number of unanswered questions and permission requests in the tab title. Nothing for the
 * task on screen. What each notification does is decided by lib/notifications/plan.
 */
export function NotificationCenter() {
  const { t } = useTranslation();
  const pathname = usePathname();
  const router = useRouter();
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const [unread, setUnread] = useState<Unread>(NO_UNREAD);
  const path = useRef(pathname);
  useEffect(() => {
    path.current = pathname;
  }, [pathname]);

  useEffect(() => bindDocumentTitle(titleStore, document), []);
  useEffect(() => titleStore.setCount(unreadCount(unread)), [unread]);

  // Opening a task is reading its questions.
  useEffect(() => {
    const taskId = taskIdFromPath(pathname);
    if (!taskId) return;
    setUnread((u) => clearTask(u, taskId));
    setToasts((list) => list.filter((x) => x.taskId !== taskId));
  }, [pathname]);

  // Hear every task's updates: a permission request sends no notification, only its task's update;
  // and an answer given elsewhere clears what was counted.
  useLiveSubscription({ board: true });

  useLiveNotifications((n) => {
    if (n.action === "task.updated") {
      const { task } = n.payload;
      setUnread((u) => withTaskUpdate(u, task, taskIdFromPath(path.current)));
      return;
    }
    if (n.action === "notification") receive(n.payload.notification);
  });

  function receive(note: Notification) {
    const plan = notificationPlan(note, {
      viewingTaskId: taskIdFromPath(path.current),
      visible: document.visibilityState === "visible",
      prefs: getLocalPrefs(),
      permission: desktopPermission(),
    });
    const text = t(`notifications.kinds.${note.kind}`);
    if (plan.toast) {
      setToasts((list) =>
        [...list.filter((x) => x.id !== note.id), { id: note.id, kind: note.kind, taskId: note.task_id, title: note.title, text }].slice(-MAX_TOASTS),
      );
    }
    if (plan.unread) setUnread((u) => addUnread(u, note.pending_id ?? note.id, note.task_id));
    if (plan.desktop) {
      showDesktop({ title: note.title, body: text, tag: note.pending_id ?? note.id, onClick: () => router.push(`/tasks/${note.task_id}`) });
    }
    if (plan.sound) beep();
  }

  return <ToastStack toasts={toasts} onDismiss={(id) => setToasts((list) => list.filter((x) => x.id !== id))} />;
}
