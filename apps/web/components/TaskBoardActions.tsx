"use client";
import type { Task } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { dropTarget } from "../lib/board-moves";
import { say } from "../lib/say";
import { serverErrorWords } from "../lib/server-errors";
import { useTaskPatch } from "../lib/use-task-patch";

/** The task page's board moves: to Done / back to Review where allowed, and Archive / Restore. */
export function TaskBoardActions({ task }: { task: Task }) {
  const { t } = useTranslation();
  const patch = useTaskPatch();
  const toDone = dropTarget(task, "done");
  const toReview = dropTarget(task, "review");
  const failed = patch.error ? serverErrorWords(patch.error) : null;
  return (
    <div className="task-board-actions">
      {toDone ? (
        <button
          type="button"
          className="button button--ghost"
          data-testid="task-to-done"
          disabled={patch.isPending}
          onClick={() => patch.mutate({ id: task.id, body: { state: toDone } })}
        >
          {t("task.moves.toDone")}
        </button>
      ) : null}
      {toReview ? (
        <button
          type="button"
          className="button button--ghost"
          data-testid="task-to-review"
          disabled={patch.isPending}
          onClick={() => patch.mutate({ id: task.id, body: { state: toReview } })}
        >
          {t("task.moves.toReview")}
        </button>
      ) : null}
      <button
        type="button"
        className="button button--ghost"
        data-testid={task.archived ? "unarchive-task" : "archive-task"}
        disabled={patch.isPending || (!task.archived && task.turn_active)}
        onClick={() => patch.mutate({ id: task.id, body: { archived: !task.archived } })}
      >
        {task.archived ? t("task.moves.restore") : t("task.moves.archive")}
      </button>
      {task.archived ? (
        <span className="pill" data-testid="task-archived">
          {t("task.moves.archived")}
        </span>
      ) : null}
      {failed ? (
        <span className="banner banner--error" role="alert" data-testid="task-move-error">
          {say(t, failed)}
        </span>
      ) : null}
    </div>
  );
}
