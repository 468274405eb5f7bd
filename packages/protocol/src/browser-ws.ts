import { z } from "zod";
import { MessageSchema, NotificationSchema, SessionSchema, TaskSchema } from "./entities.js";
import { SessionLogNotificationSchema } from "./session-logs.js";
import { TaskChangesUpdatedSchema, TaskDeletedSchema } from "./workspaces.js";

/** Path of the browser WebSocket on the board's single origin. */
export const BROWSER_WS_PATH = "/ws";

/** Browser -> server requests (envelope type "request"). */
export const SubscribeParamsSchema = z.union([
  z.object({ task_id: z.string().min(1) }).strict(),
  z.object({ session_id: z.string().min(1) }).strict(),
  z.object({ board: z.literal(true) }).strict(),
]);
export type SubscribeParams = z.infer<typeof SubscribeParamsSchema>;

export const BROWSER_REQUESTS = {
  subscribe: SubscribeParamsSchema,
  unsubscribe: SubscribeParamsSchema,
} as const;
export type BrowserRequestName = keyof typeof BROWSER_REQUESTS;

/**
 * Text an agent appended to a streaming message: `text` goes at `offset`, the length of the
 * message's content before it in UTF-16 code units (JavaScript string length). A client whose copy
 * of the message is not exactly `offset` long missed something and refetches the message over REST.
 */
export const MessageAppendedSchema = z.object({
  session_id: z.string().min(1),
  task_id: z.string().min(1),
  message_id: z.string().min(1),
  offset: z.number().int().nonnegative(),
  text: z.string(),
});
export type MessageAppended = z.infer<typeof MessageAppendedSchema>;

/** Server -> browser notifications (envelope type "notification"). */
export const BROWSER_NOTIFICATIONS = {
  "task.updated": z.object({ task: TaskSchema }),
  "session.updated": z.object({ session: SessionSchema }),
  "session.message.added": z.object({ message: MessageSchema }),
  "session.message.updated": z.object({ message: MessageSchema }),
  /** Streamed text added to a message, batched per message (MessageAppendedSchema). */
  "session.message.appended": MessageAppendedSchema,
  notification: z.object({ notification: NotificationSchema }),
  /** New lines of an agent's stderr (redacted), for subscribers of that session or its task. */
  "session.log": SessionLogNotificationSchema,
  /** A task's changed files, after a turn ended or an edit tool call completed (subscribers of that task). */
  "task.changes.updated": TaskChangesUpdatedSchema,
  /** A task was deleted (board subscribers and subscribers of that task). */
  "task.deleted": TaskDeletedSchema,
} as const;
export type BrowserNotificationName = keyof typeof BROWSER_NOTIFICATIONS;
export type BrowserNotification<N extends BrowserNotificationName> = z.infer<(typeof BROWSER_NOTIFICATIONS)[N]>;
export const BROWSER_NOTIFICATION_NAMES = Object.keys(BROWSER_NOTIFICATIONS) as BrowserNotificationName[];
