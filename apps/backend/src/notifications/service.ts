import { randomUUID } from "node:crypto";
import { NotificationSchema, type Notification, type NotificationKind, type NotificationSettings, type PatchNotificationSettingsBody } from "@kandev/protocol";
import type { Db } from "../db/client.js";
import type { Logger } from "../logger.js";
import { claimDelivery } from "../repos/notification-deliveries.js";
import * as settingsRepo from "../repos/notification-settings.js";
import * as tasksRepo from "../repos/tasks.js";
import { nowIso } from "../repos/util.js";
import { SETTING_OF_KIND, composeClarificationRequested, composeTurnFinished, notifiesTurnFinished, resolveSettings, type ComposedNotification } from "./compose.js";

/** Where notifications go: every connected browser (the hub's `notification` action). */
export interface NotificationSink {
  notify(notification: Notification): void;
}

/**
 * Sends `session.clarification_requested` (on by default) and `session.turn_finished` (opt-in) to
 * every browser. Each goes out at most once per pending id / turn id: the deliveries table's unique
 * (kind, dedup_key) index is claimed before sending, so retries and restarts never repeat one.
 */
export class NotificationService {
  /**
   * The settings as last read. Every question consults them, and they change only through
   * `updateSettings` (this service is the table's one writer), so they are read once, not per
   * question, and read again after every update.
   */
  private cached: NotificationSettings | undefined;

  constructor(
    private readonly db: Db,
    private readonly sink: NotificationSink,
    private readonly logger: Logger,
  ) {}

  settings(): NotificationSettings {
    return { ...this.current() };
  }

  private current(): NotificationSettings {
    this.cached ??= resolveSettings(settingsRepo.listSettings(this.db));
    return this.cached;
  }

  updateSettings(patch: PatchNotificationSettingsBody): NotificationSettings {
    try {
      for (const [key, value] of Object.entries(patch)) {
        if (typeof value === "boolean") settingsRepo.setSetting(this.db, key, value);
      }
    } finally {
      // Also after a write that failed part way: the next read sees what the table holds.
      this.cached = undefined;
    }
    return this.settings();
  }

  /** A clarification was created; deduplicated by its pending id (F9). */
  clarificationRequested(input: { pendingId: string; sessionId: string; taskId: string }): Notification | null {
    const notification = this.claimClarificationRequested(input);
    if (notification !== null) this.deliver(notification);
    return notification;
  }

  /**
   * The database half of `clarificationRequested`, for the caller's own transaction: claims the
   * delivery and builds the notification, which the caller sends with `deliver` once it committed.
   */
  claimClarificationRequested(input: { pendingId: string; sessionId: string; taskId: string; taskTitle?: string }): Notification | null {
    return this.claim("session.clarification_requested", input.pendingId, input, (title) => composeClarificationRequested(title), input.pendingId);
  }

  /** Sends a claimed notification to every browser. */
  deliver(notification: Notification): void {
    this.sink.notify(notification);
  }

  /** A turn ended; deduplicated by the turn id. */
  turnFinished(input: { turnId: string; sessionId: string; taskId: string; stopReason: string }): Notification | null {
    if (!notifiesTurnFinished(input.stopReason)) return null;
    const notification = this.claim("session.turn_finished", input.turnId, input, (title) => composeTurnFinished(title, input.stopReason), null);
    if (notification !== null) this.deliver(notification);
    return notification;
  }

  /** Claims the (kind, dedupKey) delivery and builds the notification; null when it is off, claimed or invalid. */
  private claim(
    kind: NotificationKind,
    dedupKey: string,
    ids: { sessionId: string; taskId: string; taskTitle?: string },
    compose: (taskTitle: string) => ComposedNotification,
    pendingId: string | null,
  ): Notification | null {
    if (!this.current()[SETTING_OF_KIND[kind]]) return null;
    // A caller that just wrote the task in its transaction passes its title: one read less.
    const taskTitle = ids.taskTitle ?? tasksRepo.getTask(this.db, ids.taskId)?.title;
    if (taskTitle === undefined) return null;
    if (!claimDelivery(this.db, { kind, dedupKey, taskId: ids.taskId, sessionId: ids.sessionId })) return null;
    const { title, body } = compose(taskTitle);
    const parsed = NotificationSchema.safeParse({
      id: randomUUID(),
      kind,
      task_id: ids.taskId,
      session_id: ids.sessionId,
      title,
      body,
      pending_id: pendingId,
      created_at: nowIso(),
    });
    if (!parsed.success) {
      this.logger.error("refusing to send an invalid notification", { kind, issues: parsed.error.issues });
      return null;
    }
    return parsed.data;
  }
}
