"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api";
import { queryKeys } from "../lib/query-keys";

/** "Start again" for a task whose session failed or was cancelled: a new session, the last prompt sent again. */
export function RestartTaskButton({ taskId }: { taskId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const restart = useMutation({
    mutationFn: () => api.restartTask(taskId),
    onSuccess: ({ task, session }) => {
      queryClient.setQueryData(queryKeys.task(task.id), task);
      queryClient.setQueryData(queryKeys.session(session.id), session);
    },
  });
  return (
    <div className="cancel-turn">
      <button
        type="button"
        className="button button--primary"
        data-testid="restart-task"
        onClick={() => restart.mutate()}
        disabled={restart.isPending}
      >
        {restart.isPending ? t("task.restarting") : t("task.restart")}
      </button>
      {restart.isError ? (
        <p className="field__error" role="alert">
          {t("task.restartFailed", { message: restart.error.message })}
        </p>
      ) : null}
    </div>
  );
}
