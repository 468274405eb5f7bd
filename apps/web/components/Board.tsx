"use client";
import { useCallback, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useTranslation } from "react-i18next";
import type { Task } from "@kandev/protocol";
import { BOARD_COLUMNS, type BoardColumn as Column, groupByColumn } from "../lib/board-columns";
import { filterTasks } from "../lib/board-filter";
import { dropTarget, keyboardMove } from "../lib/board-moves";
import { useAgentProfiles, useTasks } from "../lib/queries";
import { say } from "../lib/say";
import { serverErrorWords } from "../lib/server-errors";
import { taskStateIcon } from "../lib/task-state-icon";
import { useNow } from "../lib/use-now";
import { useTaskPatch } from "../lib/use-task-patch";
import { ArchivedTasks } from "./ArchivedTasks";
import { BoardColumn } from "./BoardColumn";
import { CreateTaskDialog } from "./CreateTaskDialog";
import { LoadMoreTasks } from "./LoadMoreTasks";
import { useLiveSubscription } from "./LiveProvider";

/**
 * The board: one column per task state, live over the `{board: true}` subscription. A task in
 * Review is dragged to Done (or moved with Shift+Arrow keys) and back; the search box narrows the
 * columns by title, state and agent (among the loaded tasks); archived tasks are shown on request.
 * Tasks load newest first, a page at a time, older pages as the operator reaches the end.
 */
export function Board() {
  const { t } = useTranslation();
  const live = useLiveSubscription({ board: true });
  const tasks = useTasks();
  const profiles = useAgentProfiles();
  const now = useNow(30_000);
  const [query, setQuery] = useState("");
  const [showArchived, setShowArchived] = useState(false);
  const [dragged, setDragged] = useState<Task | null>(null);
  const [announce, setAnnounce] = useState("");
  const move = useTaskPatch();
  const onBoard = useMemo(() => (tasks.data ?? []).filter((task) => !task.archived), [tasks.data]);
  const shown = useMemo(
    () =>
      filterTasks(onBoard, query, {
        stateLabel: (task) => t(`states.${taskStateIcon(task)}`),
        agentName: (id) => profiles.data?.find((p) => p.id === id)?.name ?? id,
      }),
    [onBoard, query, t, profiles.data],
  );
  const groups = useMemo(() => groupByColumn(shown), [shown]);
  const router = useRouter();
  const open = useCallback((href: string) => router.push(href), [router]);

  const mutate = useRef(move.mutate);
  mutate.current = move.mutate;
  const moveTo = useCallback(
    (task: Task, column: Column) => {
      const state = dropTarget(task, column);
      if (state === null) return;
      const where = t(`board.columns.${column}`);
      mutate.current(
        { id: task.id, body: { state } },
        {
          onSuccess: () => setAnnounce(t("board.moved", { title: task.title, column: where })),
          onError: (err) => {
            const words = serverErrorWords(err);
            setAnnounce(t("board.moveFailed", { title: task.title, reason: say(t, words) }));
          },
        },
      );
    },
    [t],
  );
  const onKeyMove = useCallback(
    (task: Task, direction: "left" | "right") => {
      const target = keyboardMove(task, direction);
      if (target === null) setAnnounce(t("board.cannotMove", { title: task.title }));
      else moveTo(task, target.column);
    },
    [moveTo, t],
  );
  const onDragEnd = useCallback(() => setDragged(null), []);
  const { fetchNextPage, isFetchingNextPage } = tasks;
  const loadMore = useCallback(() => {
    if (!isFetchingNextPage) void fetchNextPage();
  }, [fetchNextPage, isFetchingNextPage]);

  return (
    <div className="board" data-testid="board" data-live={live ? "true" : "false"}>
      <div className="page-head">
        <div>
          <h1 className="page-head__title">{t("board.title")}</h1>
          <p className="page-head__subtitle" data-testid="board-count">
            {tasks.data ? t(tasks.hasNextPage ? "board.paging.loaded" : "board.taskCount", { count: onBoard.length }) : t("board.subtitle")}
          </p>
        </div>
        <CreateTaskDialog />
      </div>

      <div className="board__tools">
        <label className="board__filter">
          <span className="sr-only">{t("board.filterLabel")}</span>
          <input
            type="search"
            data-testid="board-filter"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={t("board.filterPlaceholder")}
            autoComplete="off"
          />
        </label>
        <button
          type="button"
          className="button button--ghost"
          data-testid="show-archived"
          aria-expanded={showArchived}
          onClick={() => setShowArchived((v) => !v)}
        >
          {showArchived ? t("board.archive.hide") : t("board.archive.show")}
        </button>
        <p className="board__hint">{t("board.moveHint")}</p>
      </div>
      <p className="sr-only" role="status" data-testid="board-move-status">
        {announce}
      </p>

      {tasks.isError ? (
        <div className="banner banner--error" role="alert">
          <span>{t("board.loadFailed", { message: tasks.error.message })}</span>
          <button type="button" className="button button--ghost" onClick={() => void tasks.refetch()}>
            {t("common.retry")}
          </button>
        </div>
      ) : null}

      {tasks.data && onBoard.length === 0 ? <p className="board__empty">{t("board.empty")}</p> : null}
      {onBoard.length > 0 && shown.length === 0 ? <p className="board__empty">{t("board.noMatch")}</p> : null}
      {query.trim() !== "" && tasks.hasNextPage ? (
        <p className="board__hint" data-testid="board-filter-partial">
          {t("board.paging.searchLoaded", { count: onBoard.length })}
        </p>
      ) : null}

      <div className="board__columns" aria-busy={tasks.isPending}>
        {BOARD_COLUMNS.map((column) => (
          <BoardColumn
            key={column}
            column={column}
            tasks={groups[column]}
            loading={tasks.isPending}
            now={now}
            open={open}
            dragged={dragged}
            onDragStart={setDragged}
            onDragEnd={onDragEnd}
            onDropTask={moveTo}
            onKeyMove={onKeyMove}
          />
        ))}
      </div>

      {tasks.hasNextPage ? <LoadMoreTasks loading={tasks.isFetchingNextPage} onLoad={loadMore} /> : null}

      {showArchived ? <ArchivedTasks now={now} /> : null}
    </div>
  );
}
