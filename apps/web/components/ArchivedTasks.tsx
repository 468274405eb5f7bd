"use client";
import Link from "next/link";
import { useTranslation } from "react-i18next";
import { useArchivedTasks } from "../lib/queries";
import { formatRelative } from "../lib/relative-time";
import { say } from "../lib/say";
import { serverErrorWords } from "../lib/server-errors";
import { useTaskPatch } from "../lib/use-task-patch";

/** The archive under the board: archived tasks, each with a link and "Restore" (PATCH archived: false). */
export function ArchivedTasks({ now }: { now: Date }) {
  const { t, i18n } = useTranslation();
  const archived = useArchivedTasks(true);
  const restore = useTaskPatch();
  const failed = restore.error ? serverErrorWords(restore.error) : null;
  return (
    <section className="archive" aria-labelledby="archive-heading" data-testid="archived-tasks">
      <h2 id="archive-heading" className="archive__head">
        {t("board.archive.heading")}
      </h2>
      {archived.isPending ? <p className="muted">{t("common.loading")}</p> : null}
      {archived.isError ? (
        <p className="banner banner--error" role="alert">
          {t("board.loadFailed", { message: archived.error.message })}
        </p>
      ) : null}
      {archived.data && archived.data.length === 0 ? <p className="muted">{t("board.archive.empty")}</p> : null}
      {failed ? (
        <p className="field__error" role="alert">
          {t("board.archive.restoreFailed", { reason: say(t, failed) })}
        </p>
      ) : null}
      <ul className="archive__list">
        {(archived.data ?? []).map((task) => (
          <li key={task.id} className="archive__item" data-testid={`archived-task-${task.id}`}>
            <Link href={`/tasks/${task.id}`} className="archive__title">
              {task.title}
            </Link>
            <time className="muted" dateTime={task.updated_at}>
              {formatRelative(task.updated_at, now, i18n.language)}
            </time>
            <button
              type="button"
              className="button button--ghost"
              data-testid={`restore-task-${task.id}`}
              disabled={restore.isPending}
              onClick={() => restore.mutate({ id: task.id, body: { archived: false } })}
            >
              {t("board.archive.restore")}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
