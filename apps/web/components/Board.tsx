"use client";
import { useCallback, useMemo } from "react";
import { useRouter } from "next/navigation";
import { useTranslation } from "react-i18next";
import { BOARD_COLUMNS, groupByColumn } from "../lib/board-columns";
import { useTasks } from "../lib/queries";
import { useNow } from "../lib/use-now";
import { BoardColumn } from "./BoardColumn";
import { CreateTaskDialog } from "./CreateTaskDialog";
import { useLiveSubscription } from "./LiveProvider";

/** The board: one column per task state, live over the `{board: true}` subscription. */
export function Board() {
  const { t } = useTranslation();
  const live = useLiveSubscription({ board: true });
  const tasks = useTasks();
  const now = useNow(30_000);
  const groups = useMemo(() => groupByColumn(tasks.data ?? []), [tasks.data]);
  const router = useRouter();
  const open = useCallback((href: string) => router.push(href), [router]);

  return (
    <div className="board" data-testid="board" data-live={live ? "true" : "false"}>
      <div className="page-head">
        <div>
          <h1 className="page-head__title">{t("board.title")}</h1>
          <p className="page-head__subtitle">{tasks.data ? t("board.taskCount", { count: tasks.data.length }) : t("board.subtitle")}</p>
        </div>
        <CreateTaskDialog />
      </div>

      {tasks.isError ? (
        <div className="banner banner--error" role="alert">
          <span>{t("board.loadFailed", { message: tasks.error.message })}</span>
          <button type="button" className="button button--ghost" onClick={() => void tasks.refetch()}>
            {t("common.retry")}
          </button>
        </div>
      ) : null}

      {tasks.data && tasks.data.length === 0 ? <p className="board__empty">{t("board.empty")}</p> : null}

      <div className="board__columns" aria-busy={tasks.isPending}>
        {BOARD_COLUMNS.map((column) => (
          <BoardColumn key={column} column={column} tasks={groups[column]} loading={tasks.isPending} now={now} open={open} />
        ))}
      </div>
    </div>
  );
}
