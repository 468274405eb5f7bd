import { z } from "zod";

/** One line the agent wrote to its stderr, as the board kept it (secrets redacted). */
export const SessionLogLineSchema = z.object({
  /** When the board received it (ISO-8601). */
  at: z.string(),
  text: z.string(),
});
export type SessionLogLine = z.infer<typeof SessionLogLineSchema>;

/** `GET /api/v1/sessions/:id/logs`: the most recent lines, oldest first. */
export const SessionLogsSchema = z.object({ lines: z.array(SessionLogLineSchema) });
export type SessionLogs = z.infer<typeof SessionLogsSchema>;

/** Payload of the `/ws` notification `session.log`: new lines of one session, oldest first. */
export const SessionLogNotificationSchema = z.object({
  session_id: z.string(),
  task_id: z.string(),
  lines: z.array(SessionLogLineSchema).min(1),
});
export type SessionLogNotification = z.infer<typeof SessionLogNotificationSchema>;
