import type { QueryClient } from "@tanstack/react-query";
import type { Message, Task } from "@kandev/protocol";
import { mergeMessages, mergeTasks } from "./live-merge";
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
