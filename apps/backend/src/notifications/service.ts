import { randomUUID } from "node:crypto";
import {
  NotificationSchema,
  type Notification,
  type NotificationKind,
  type NotificationSettings,
  type PatchNotificationSettingsBody,
} from "@kandev/protocol";
import type { Db } from "../db/client.js";
import type { Logger } from "../logger.js";
import { claimDelivery } from "../repos/notification-deliveries.js";
import * as settingsRepo from "../repos/notification-settings.js";
import * as tasksRepo from "../repos/tasks.js";
import { inTransaction, nowIso } from "../repos/util.js";
import {
  SETTING_OF_KIND,
  composeClarificationRequested,
  composeTurnFinished,
  notifiesTurnFinished,
  resolveSettings,
  type ComposedNotification,
} from "./compose.js";

/** Where notifications go: every connected browser (the hub's `notification` action). */
export interface NotificationSink {
  notify(notification: Notification): void;
}

/**
 * Sends `session.clarification_requested` (on by default) and `session.turn_finished` (opt-in) to
 * every browser, each at most once: a clarification's notification once per pending id, through
 * the clarification's own primary key (see newClarificationRequested); a turn's once per turn id,
 * through the deliveries table's unique (kind, dedup_key) index, claimed before sending, so
 * retries and restarts never repeat one.
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
      // All of the patch or none of it: a refused write leaves every setting as it was.
      inTransaction(this.db, () => {
        for (const [key, value] of Object.entries(patch)) {
          if (typeof value === "boolean") settingsRepo.setSetting(this.db, key, value);
        }
      });
    } finally {
      // Whatever happened, the next read sees what the table holds.
      this.cached = undefined;
    }
    return this.settings();
  }

  /**
   * The notification of a clarification the caller has just inserted, in its own transaction;
   * nothing is written and nothing is sent (the caller sends it with `deliver` once it committed).
   * Once per pending id (F9) holds through that insert: the pending id is the clarification's
   * primary key, so a replayed or repeated request fails there and never reaches this call.
   */
  newClarificationRequested(input: { pendingId: string; sessionId: string; taskId: string; taskTitle: string }): Notification | null {
    if (!this.current()[SETTING_OF_KIND["session.clarification_requested"]]) return null;
    return this.build("session.clarification_requested", input, composeClarificationRequested(input.taskTitle), input.pendingId);
  }

  /** Sends a notification to every browser. */
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
    ids: { sessionId: string; taskId: string },
    compose: (taskTitle: string) => ComposedNotification,
    pendingId: string | null,
  ): Notification | null {
    if (!this.current()[SETTING_OF_KIND[kind]]) return null;
    const taskTitle = tasksRepo.getTask(this.db, ids.taskId)?.title;
    if (taskTitle === undefined) return null;
    if (!claimDelivery(this.db, { kind, dedupKey, taskId: ids.taskId, sessionId: ids.sessionId })) return null;
    return this.build(kind, ids, compose(taskTitle), pendingId);
  }

  /** The notification, checked against its schema; null (logged) when it does not pass. */
  private build(
    kind: NotificationKind,
    ids: { sessionId: string; taskId: string },
    composed: ComposedNotification,
    pendingId: string | null,
  ): Notification | null {
    const parsed = NotificationSchema.safeParse({
      id: randomUUID(),
      kind,
      task_id: ids.taskId,
      session_id: ids.sessionId,
      title: composed.title,
      body: composed.body,
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
