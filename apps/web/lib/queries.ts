import { useInfiniteQuery, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { Message, SessionLogLine, Task } from "@kandev/protocol";
import { mergeFetchedLog } from "./agent-log";
import { api, MESSAGE_PAGE_SIZE, TASK_PAGE_SIZE } from "./api";
import { ledgerFor } from "./live-cache";
import { pageWithAppends } from "./message-append";
import { type LiveLedger, latest, liveMessages, liveSessions, liveTasks, mergeMessages, mergeTasks } from "./live-merge";
import { flattenPages, flattenPagesOldestFirst, nextCursor, type Page, type Pages, withLive } from "./paged-list";
import { queryKeys } from "./query-keys";

// Each fetch lays the live updates that arrived while it ran over its result (see LiveLedger).

const boardOrder = (data: Pages<Task>) => flattenPages(data);
const transcriptOrder = (data: Pages<Message>) => flattenPagesOldestFirst(data);

/** The board's tasks, newest first, a page at a time (`fetchNextPage` loads older ones); `data` is what is loaded. */
export function useTasks() {
  const ledger = ledgerFor(useQueryClient());
  return useInfiniteQuery({
    queryKey: queryKeys.tasks(),
    initialPageParam: null as string | null,
    getNextPageParam: nextCursor,
    queryFn: async ({ pageParam, signal }) => {
      const { value, live } = await ledger.track(() => api.listTasksPage(pageParam, TASK_PAGE_SIZE, signal));
      return withLive(value, liveTasks(live), pageParam === null, mergeTasks);
    },
    select: boardOrder,
  });
}

/** The archived tasks, fetched only while the archive is shown; live updates keep it current (live-cache.ts). */
export function useArchivedTasks(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.archivedTasks(), enabled, queryFn: ({ signal }) => api.listArchivedTasks(signal) });
}

export function useTask(id: string) {
  const ledger = ledgerFor(useQueryClient());
  return useQuery({
    queryKey: queryKeys.task(id),
    queryFn: async ({ signal }) => {
      const { value, live } = await ledger.track(() => api.getTask(id, signal));
      return latest(value, liveTasks(live));
    },
  });
}

export function useSession(id: string | null) {
  const ledger = ledgerFor(useQueryClient());
  return useQuery({
    queryKey: queryKeys.session(id ?? ""),
    enabled: id !== null,
    queryFn: async ({ signal }) => {
      const { value, live } = await ledger.track(() => api.getSession(id ?? "", signal));
      return latest(value, liveSessions(live));
    },
  });
}

/**
 * A session's transcript, oldest first: the newest page loads first, `fetchNextPage` loads the
 * page before the earliest one shown.
 */
export function useMessages(sessionId: string | null) {
  const ledger = ledgerFor(useQueryClient());
  return useInfiniteQuery({
    queryKey: queryKeys.messages(sessionId ?? ""),
    enabled: sessionId !== null,
    initialPageParam: null as string | null,
    getNextPageParam: nextCursor,
    queryFn: ({ pageParam, signal }) => fetchMessagesPage(ledger, sessionId ?? "", pageParam, signal),
    select: transcriptOrder,
  });
}

/**
 * One page of a session's transcript with what was pushed while it was fetched laid over it: newer
 * versions of its messages (LiveLedger), then the streamed text that arrived meanwhile, in order.
 */
export async function fetchMessagesPage(
  ledger: LiveLedger,
  sessionId: string,
  cursor: string | null,
  signal?: AbortSignal,
  get: typeof api.listMessagesPage = api.listMessagesPage,
): Promise<Page<Message>> {
  const { value, live, appends } = await ledger.track(() => get(sessionId, cursor, MESSAGE_PAGE_SIZE, signal));
  return pageWithAppends(withLive(value, liveMessages(live, sessionId), cursor === null, mergeMessages), appends);
}

/** A session's agent log, fetched only while `enabled` (the panel is open); live lines extend it. */
export function useSessionLogs(sessionId: string | null, enabled: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.sessionLogs(sessionId ?? ""),
    enabled: enabled && sessionId !== null,
    queryFn: ({ signal }) => fetchSessionLogs(queryClient, sessionId ?? "", signal),
  });
}

/**
 * A session's log as the board keeps it, merged with the lines pushed while the fetch ran (they are
 * in the cache already, also during the first fetch: live-cache.ts), so the ones it misses stay.
 */
export async function fetchSessionLogs(
  queryClient: QueryClient,
  sessionId: string,
  signal?: AbortSignal,
  get: typeof api.getSessionLogs = api.getSessionLogs,
): Promise<SessionLogLine[]> {
  const { lines } = await get(sessionId, signal);
  return mergeFetchedLog(lines, queryClient.getQueryData<SessionLogLine[]>(queryKeys.sessionLogs(sessionId)));
}

export function useAgentProfiles() {
  return useQuery({ queryKey: queryKeys.agentProfiles(), queryFn: ({ signal }) => api.listAgentProfiles(signal) });
}

/** The preset catalog. Availability lives on the board's disk, not in the live feed: refetch to re-check. */
export function useAgentPresets() {
  return useQuery({ queryKey: queryKeys.agentPresets(), queryFn: ({ signal }) => api.listAgentPresets(signal) });
}

export function useRuntimeFlags() {
  return useQuery({ queryKey: queryKeys.runtimeFlags(), queryFn: ({ signal }) => api.listRuntimeFlags(signal) });
}

export function useRepositories() {
  return useQuery({ queryKey: queryKeys.repositories(), queryFn: ({ signal }) => api.listRepositories(signal) });
}

export function useBranches(repositoryId: string | null) {
  return useQuery({
    queryKey: queryKeys.branches(repositoryId ?? ""),
    enabled: repositoryId !== null,
    queryFn: ({ signal }) => api.listBranches(repositoryId ?? "", signal),
  });
}

/** A task's changes; `task.changes.updated` over /ws marks it stale, so it refetches while shown. */
export function useChanges(taskId: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.changes(taskId), enabled, queryFn: ({ signal }) => api.getChanges(taskId, signal) });
}

export function useNotificationSettings() {
  return useQuery({ queryKey: queryKeys.notificationSettings(), queryFn: ({ signal }) => api.getNotificationSettings(signal) });
}
