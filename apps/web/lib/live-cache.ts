import type { QueryClient } from "@tanstack/react-query";
import {
  BROWSER_NOTIFICATIONS,
  type BrowserNotification,
  type BrowserNotificationName,
  type Envelope,
  type SessionLogLine,
  type Task,
} from "@kandev/protocol";
import { appendLogLines } from "./agent-log";
import { LiveLedger, mergeTasks } from "./live-merge";
import { appendTranscriptText, removeBoardTask, upsertBoardTasks, upsertTranscriptMessage } from "./paged-cache";
import { queryKeys } from "./query-keys";

/** A validated server -> browser notification, tagged by its action. */
export type LiveNotification = {
  [N in BrowserNotificationName]: { action: N; payload: BrowserNotification<N> };
}[BrowserNotificationName];

export type ParseResult = { ok: true; notification: LiveNotification } | { ok: false; reason: string };

function isNotificationName(action: string): action is BrowserNotificationName {
  return Object.hasOwn(BROWSER_NOTIFICATIONS, action);
}

/** Validates a notification envelope against its action's schema (BROWSER_NOTIFICATIONS). */
export function parseNotification(envelope: Envelope): ParseResult {
  if (envelope.type !== "notification") return { ok: false, reason: `not a notification: ${envelope.type}` };
  if (!isNotificationName(envelope.action)) return { ok: false, reason: `unknown action ${envelope.action}` };
  const parsed = BROWSER_NOTIFICATIONS[envelope.action].safeParse(envelope.payload);
  if (!parsed.success) return { ok: false, reason: `invalid ${envelope.action} payload: ${parsed.error.message}` };
  return { ok: true, notification: { action: envelope.action, payload: parsed.data } as LiveNotification };
}

const ledgers = new WeakMap<QueryClient, LiveLedger>();

/** The ledger shared by one query client's fetches and its live stream. */
export function ledgerFor(queryClient: QueryClient): LiveLedger {
  let ledger = ledgers.get(queryClient);
  if (!ledger) {
    ledger = new LiveLedger();
    ledgers.set(queryClient, ledger);
  }
  return ledger;
}

/**
 * Writes one live update into the react-query cache. Lists that were never fetched stay unfetched
 * (their first fetch will contain the update; the ledger covers a fetch already in flight).
 */
export function applyNotification(queryClient: QueryClient, notification: LiveNotification): void {
  const ledger = ledgerFor(queryClient);
  switch (notification.action) {
    case "task.updated": {
      const { task } = notification.payload;
      ledger.note({ kind: "task", value: task });
      upsertBoardTasks(queryClient, [task]);
      queryClient.setQueryData<Task>(queryKeys.task(task.id), task);
      // The archive lists archived tasks only: one archived elsewhere joins it, one restored leaves.
      queryClient.setQueryData<Task[]>(queryKeys.archivedTasks(), (old) =>
        old ? (task.archived ? mergeTasks(old, [task]) : old.filter((t) => t.id !== task.id)) : old,
      );
      return;
    }
    case "session.updated": {
      const { session } = notification.payload;
      ledger.note({ kind: "session", value: session });
      queryClient.setQueryData(queryKeys.session(session.id), session);
      return;
    }
    case "session.message.added":
    case "session.message.updated": {
      const { message } = notification.payload;
      ledger.note({ kind: "message", value: message });
      upsertTranscriptMessage(queryClient, message);
      return;
    }
    case "session.message.appended":
      // Only the new text: laid on the cached message, or the transcript is refetched (paged-cache.ts).
      ledger.noteAppend(notification.payload);
      appendTranscriptText(queryClient, notification.payload);
      return;
    case "task.changes.updated":
      // The diff is not in the push (it can be megabytes): whoever shows the changes refetches them.
      void queryClient.invalidateQueries({ queryKey: queryKeys.changes(notification.payload.task_id) });
      return;
    case "task.deleted": {
      const id = notification.payload.task_id;
      removeBoardTask(queryClient, id);
      queryClient.setQueryData<Task[]>(queryKeys.archivedTasks(), (old) => (old ? old.filter((t) => t.id !== id) : old));
      queryClient.removeQueries({ queryKey: queryKeys.task(id) });
      queryClient.removeQueries({ queryKey: queryKeys.changes(id) });
      return;
    }
    case "notification":
      // Not cached: the notification center hears it through WsClient.onNotification.
      return;
    case "session.log": {
      // Only a log someone opened is kept. While its first fetch is in flight the lines are kept
      // too: the board may have answered the fetch before it took them, and the fetch merges
      // whatever the cache holds when it lands (useSessionLogs), so none is lost either way.
      const { session_id, lines } = notification.payload;
      const key = queryKeys.sessionLogs(session_id);
      const firstFetch = queryClient.getQueryState(key)?.fetchStatus === "fetching";
      queryClient.setQueryData<SessionLogLine[]>(key, (old) => (old ? appendLogLines(old, lines) : firstFetch ? appendLogLines([], lines) : old));
      return;
    }
    default: {
      const unreachable: never = notification;
      throw new Error(`unhandled notification ${JSON.stringify(unreachable)}`);
    }
  }
}
