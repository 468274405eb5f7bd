"use client";
import type { Task } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import type { BoardColumn as Column } from "../lib/board-columns";
import { TaskRow } from "./TaskRow";

export function BoardColumn({
  column,
  tasks,
  loading,
  now,
  open,
}: {
  column: Column;
  tasks: Task[];
  loading: boolean;
  now: Date;
  open: (href: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const headingId = `column-${column}`;
  return (
    <section className={`column column--${column}`} aria-labelledby={headingId} data-testid={`column-${column}`}>
      <h2 className="column__head" id={headingId}>
        <span className="column__name">{t(`board.columns.${column}`)}</span>
        <span className="column__count">{loading ? "" : tasks.length}</span>
      </h2>
      {loading ? (
        <div className="column__skeleton" aria-hidden="true">
          <span />
          <span />
        </div>
      ) : tasks.length === 0 ? (
        <p className="column__empty">{t("board.columnEmpty")}</p>
      ) : (
        <ul className="column__list">
          {tasks.map((task) => (
            <TaskRow key={task.id} task={task} now={now} t={t} lang={i18n.language} open={open} />
          ))}
        </ul>
      )}
    </section>
  );
}
