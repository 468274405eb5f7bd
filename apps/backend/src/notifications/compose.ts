/**
 * What a notification says and which ones go out. Pure. A notification names the task but never
 * carries the question text or anything else the agent wrote (DECISIONS F9): it can surface on a
 * lock screen or in a shared room.
 */
import type { NotificationKind, NotificationSettings } from "@kandev/protocol";

/** The setting each notification kind answers to. */
export const SETTING_OF_KIND: Record<NotificationKind, keyof NotificationSettings> = {
  "session.clarification_requested": "clarification_requested",
  "session.turn_finished": "turn_finished",
};

/** Clarification requests notify by default; a finished turn only for operators who opt in. */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  clarification_requested: true,
  turn_finished: false,
};

/** Stored rows over the defaults; unknown stored keys are ignored. */
export function resolveSettings(stored: Record<string, boolean>): NotificationSettings {
  const out = { ...DEFAULT_NOTIFICATION_SETTINGS };
  for (const key of Object.keys(out) as Array<keyof NotificationSettings>) {
    const v = stored[key];
    if (typeof v === "boolean") out[key] = v;
  }
  return out;
}

export interface ComposedNotification {
  title: string;
  body: string;
}

const MAX_TITLE_CHARS = 200;

/** The task title, clipped, is the notification's title for every kind. */
function titleOf(taskTitle: string): string {
  const t = taskTitle.trim();
  return t.length > MAX_TITLE_CHARS ? `${t.slice(0, MAX_TITLE_CHARS - 1)}…` : t;
}

/** A clarification was raised: says who waits, never what was asked. */
export function composeClarificationRequested(taskTitle: string): ComposedNotification {
  return { title: titleOf(taskTitle), body: `The agent needs your answer on "${titleOf(taskTitle)}".` };
}

/** A turn ended (any stop reason but a cancel, which the operator did themselves). */
export function composeTurnFinished(taskTitle: string, stopReason: string): ComposedNotification {
  const how = stopReason === "error" ? "ended with an error" : "finished its turn";
  return { title: titleOf(taskTitle), body: `The agent ${how} on "${titleOf(taskTitle)}".` };
}

/** Whether a turn that ended this way is worth a `session.turn_finished`. */
export function notifiesTurnFinished(stopReason: string): boolean {
  return stopReason !== "cancelled";
}
