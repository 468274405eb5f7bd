/**
 * What one browser notification does, decided purely: an in-app toast, a desktop notification
 * when the operator allowed it, a sound if they want one, and a count in the tab title; nothing
 * at all for the task the operator is looking at (they can see the question already).
 */
import type { Notification } from "@kandev/protocol";
import type { LocalPrefs } from "./prefs";

export type DesktopPermission = "granted" | "denied" | "default" | "unsupported";

export interface PlanContext {
  /** The task whose page is open, if any. */
  viewingTaskId: string | null;
  /** Whether the page is visible (a hidden tab is not "looking"). */
  visible: boolean;
  prefs: LocalPrefs;
  permission: DesktopPermission;
}

export interface NotificationPlan {
  toast: boolean;
  desktop: boolean;
  sound: boolean;
  /** Counts towards the number in the tab title until the operator opens the task. */
  unread: boolean;
}

const NOTHING: NotificationPlan = { toast: false, desktop: false, sound: false, unread: false };

export function notificationPlan(n: Notification, ctx: PlanContext): NotificationPlan {
  if (ctx.visible && ctx.viewingTaskId === n.task_id) return NOTHING;
  return {
    toast: true,
    desktop: ctx.prefs.desktop && ctx.permission === "granted",
    sound: ctx.prefs.sound,
    unread: n.kind === "session.clarification_requested",
  };
}

/** The task id of a `/tasks/<id>` path (the task page), else null. */
export function taskIdFromPath(pathname: string | null): string | null {
  const m = /^\/tasks\/([^/?#]+)\/?$/.exec(pathname ?? "");
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}
