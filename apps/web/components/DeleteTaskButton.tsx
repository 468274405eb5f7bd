"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Task } from "@kandev/protocol";
import { api } from "../lib/api";
import { say } from "../lib/say";
import { serverErrorWords } from "../lib/server-errors";
import { removeBoardTask } from "../lib/paged-cache";

/**
 * Deletes the task after an inline confirmation (DELETE /api/v1/tasks/:id: the session stops, a
 * worktree's uncommitted work is committed on its branch and the branch is kept), then goes back to
 * the board.
 */
export function DeleteTaskButton({ task }: { task: Task }) {
  const { t } = useTranslation();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.deleteTask(task.id),
    onSuccess: () => {
      removeBoardTask(queryClient, task.id);
      router.push("/");
    },
  });

  if (!confirming) {
    return (
      <button type="button" className="button button--ghost" data-testid="delete-task" onClick={() => setConfirming(true)}>
        {t("task.delete.button")}
      </button>
    );
  }
  return (
    <fieldset className="delete-task" aria-label={t("task.delete.button")}>
      <span data-testid="delete-task-question">
        {task.workspace ? t("task.delete.confirmWorkspace", { branch: task.workspace.branch }) : t("task.delete.confirm")}
      </span>
      <button
        type="button"
        className="button button--danger"
        data-testid="delete-task-confirm"
        disabled={remove.isPending}
        onClick={() => remove.mutate()}
      >
        {remove.isPending ? t("task.delete.deleting") : t("task.delete.yes")}
      </button>
      <button
        type="button"
        className="button button--ghost"
        data-testid="delete-task-cancel"
        disabled={remove.isPending}
        onClick={() => {
          remove.reset();
          setConfirming(false);
        }}
      >
        {t("task.delete.no")}
      </button>
      {remove.error ? (
        <span className="banner banner--error" role="alert" data-testid="delete-task-error">
          {t("task.delete.failed", { message: say(t, serverErrorWords(remove.error)) })}
        </span>
      ) : null}
    </fieldset>
  );
}
