import type { QueryClient } from "@tanstack/react-query";
import type { Message, MessageAppended, Task } from "@kandev/protocol";
import { mergeMessages, mergeTasks } from "./live-merge";
import { appendToPages } from "./message-append";
import { type Pages, removePaged, upsertPaged } from "./paged-list";
import { queryKeys } from "./query-keys";

// The paged lists' cache writers (paged-list.ts holds the rules). A list never fetched stays
// unfetched: its first fetch will contain the change.

/** Adds or updates tasks in the board's loaded pages: a new task joins the top, a known one changes in place. */
export function upsertBoardTasks(queryClient: QueryClient, tasks: readonly Task[]): void {
  queryClient.setQueryData<Pages<Task>>(queryKeys.tasks(), (old) => (old ? upsertPaged(old, tasks, mergeTasks) : old));
}

/** Takes a task off the board's loaded pages. */
export function removeBoardTask(queryClient: QueryClient, id: string): void {
  queryClient.setQueryData<Pages<Task>>(queryKeys.tasks(), (old) => (old ? removePaged(old, id) : old));
}

/** Adds or updates a message in its session's loaded transcript pages. */
export function upsertTranscriptMessage(queryClient: QueryClient, message: Message): void {
  queryClient.setQueryData<Pages<Message>>(queryKeys.messages(message.session_id), (old) => (old ? upsertPaged(old, [message], mergeMessages) : old));
}

/** Transcripts to refetch once the fetch running now ends, by query hash (one wait each). */
const refetchAfterFetch = new WeakMap<QueryClient, Set<string>>();

/**
 * Lays streamed text on its message in the loaded transcript. When it does not fit (a delta was
 * missed, or the message is not loaded) the session's messages are refetched. While a fetch is
 * already running the refetch waits for it to end, once: restarting the fetch for every delta of a
 * long reply would keep it from ever finishing, and the running one may not read the message at all
 * (an earlier page loading). A transcript never fetched stays unfetched.
 */
export function appendTranscriptText(queryClient: QueryClient, append: MessageAppended): void {
  const key = queryKeys.messages(append.session_id);
  const data = queryClient.getQueryData<Pages<Message>>(key);
  if (data === undefined) return;
  const next = appendToPages(data, append);
  if (next === data) return;
  if (next !== null) {
    queryClient.setQueryData<Pages<Message>>(key, next);
    return;
  }
  const query = queryClient.getQueryCache().find({ queryKey: key, exact: true });
  if (query?.state.fetchStatus !== "fetching" || query.promise === undefined) {
    void queryClient.invalidateQueries({ queryKey: key });
    return;
  }
  let waiting = refetchAfterFetch.get(queryClient);
  if (waiting === undefined) {
    waiting = new Set();
    refetchAfterFetch.set(queryClient, waiting);
  }
  if (waiting.has(query.queryHash)) return;
  waiting.add(query.queryHash);
  const hash = query.queryHash;
  void query.promise
    .catch(() => undefined)
    .finally(() => {
      waiting.delete(hash);
      void queryClient.invalidateQueries({ queryKey: key });
    });
}
