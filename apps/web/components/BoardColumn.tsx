"use client";
import { useState } from "react";
import type { Task } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import type { BoardColumn as Column } from "../lib/board-columns";
import { dropTarget } from "../lib/board-moves";
import { TaskRow } from "./TaskRow";

export interface BoardColumnProps {
  column: Column;
  tasks: Task[];
  loading: boolean;
  now: Date;
  open: (href: string) => void;
  /** The task being dragged, if any: a column that takes it shows so. */
  dragged: Task | null;
  onDragStart: (task: Task) => void;
  onDragEnd: () => void;
  onDropTask: (task: Task, column: Column) => void;
  onKeyMove: (task: Task, direction: "left" | "right") => void;
}

export function BoardColumn({ column, tasks, loading, now, open, dragged, onDragStart, onDragEnd, onDropTask, onKeyMove }: BoardColumnProps) {
  const { t, i18n } = useTranslation();
  const [over, setOver] = useState(false);
  const headingId = `column-${column}`;
  const takes = dragged !== null && dropTarget(dragged, column) !== null;
  return (
    <section
      className={`column column--${column}${takes ? " column--drop-ok" : ""}${takes && over ? " column--drop-over" : ""}`}
      aria-labelledby={headingId}
      data-testid={`column-${column}`}
      onDragOver={(e) => {
        if (!takes) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "move";
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false);
        if (!takes || dragged === null) return;
        e.preventDefault();
        onDropTask(dragged, column);
        onDragEnd();
      }}
    >
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
            <TaskRow
              key={task.id}
              task={task}
              now={now}
              t={t}
              lang={i18n.language}
              open={open}
              onDragStart={onDragStart}
              onDragEnd={onDragEnd}
              onKeyMove={onKeyMove}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
