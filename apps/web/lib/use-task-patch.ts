import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PatchTaskBody, Task } from "@kandev/protocol";
import { api } from "./api";
import { mergeTasks } from "./live-merge";
import { upsertBoardTasks } from "./paged-cache";
import { queryKeys } from "./query-keys";

/**
 * PATCH /api/v1/tasks/:id with its answer laid into every cache that shows the task (the board,
 * the task page, the archive) at once, before its `task.updated` arrives over /ws.
 */
export function useTaskPatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: PatchTaskBody }) => api.patchTask(id, body),
    onSuccess: (task) => {
      upsertBoardTasks(queryClient, [task]);
      queryClient.setQueryData<Task>(queryKeys.task(task.id), task);
      queryClient.setQueryData<Task[]>(queryKeys.archivedTasks(), (old) =>
        old ? (task.archived ? mergeTasks(old, [task]) : old.filter((t) => t.id !== task.id)) : old,
      );
    },
  });
}
