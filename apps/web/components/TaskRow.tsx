"use client";
import { memo, type KeyboardEvent, type MouseEvent } from "react";
import type { Task } from "@kandev/protocol";
import type { TFunction } from "i18next";
import { formatRelative } from "../lib/relative-time";
import { taskStateIcon } from "../lib/task-state-icon";
import { StateGlyph } from "./TaskStateIcon";
import { contextUsed, costText } from "../lib/session-usage";

export interface TaskRowProps {
  task: Task;
  now: Date;
  t: TFunction;
  lang: string;
  /** Client-side navigation to a task page (one router for the whole board). */
  open: (href: string) => void;
  /** Drag and drop between columns, and Shift+Arrow for the same without a mouse (Board.tsx). */
  onDragStart?: (task: Task) => void;
  onDragEnd?: () => void;
  onKeyMove?: (task: Task, direction: "left" | "right") => void;
}

/**
 * One task on the board: its live state icon, title and age; the whole row links to the task.
 * Memoized: a live update replaces one task object (the others keep their identity, see
 * live-merge.ts), so only that row re-renders, not the thousand around it. A row uses no hook of
 * its own (translation and router come from the board) and is a plain link that navigates on the
 * client on a plain left click: a board of a thousand Next links, each with its own router hooks,
 * took a large share of the board's first render.
 */
export const TaskRow = memo(function TaskRow({ task, now, t, lang, open, onDragStart, onDragEnd, onKeyMove }: TaskRowProps) {
  const icon = taskStateIcon(task);
  const href = `/tasks/${task.id}`;
  const label = t(`states.${icon}`);
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    // Modified and non-left clicks keep the browser's behaviour (new tab, new window, download).
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    open(href);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLAnchorElement>) => {
    if (!onKeyMove || !e.shiftKey || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    e.preventDefault();
    onKeyMove(task, e.key === "ArrowRight" ? "right" : "left");
  };
  return (
    <li className="task-row-item">
      <a
        href={href}
        onClick={onClick}
        onKeyDown={onKeyDown}
        className={`task-row task-row--${icon}`}
        data-testid={`task-row-${task.id}`}
        draggable={onDragStart !== undefined}
        onDragStart={(e) => {
          if (!onDragStart) return;
          e.dataTransfer.effectAllowed = "move";
          e.dataTransfer.setData("text/plain", task.id);
          onDragStart(task);
        }}
        onDragEnd={onDragEnd}
        aria-keyshortcuts={onKeyMove ? "Shift+ArrowLeft Shift+ArrowRight" : undefined}
      >
        <StateGlyph name={icon} label={label} />
        <span className="task-row__body">
          <span className="task-row__title" title={task.title} data-testid="task-card-title">
            {task.title}
          </span>
          <span className="task-row__meta">
            <span>{label}</span>
            <time dateTime={task.updated_at}>{formatRelative(task.updated_at, now, lang)}</time>
          </span>
          {task.session_usage ? (
            <span className="task-row__usage" data-testid="task-card-usage">
              {contextUsed(task.session_usage)}
              {costText(task.session_usage, lang) !== null ? ` · ${costText(task.session_usage, lang)}` : null}
            </span>
          ) : null}
          {task.workspace ? (
            <code className="task-row__branch" data-testid="task-row-branch" title={task.workspace.branch}>
              {task.workspace.branch}
            </code>
          ) : null}
        </span>
      </a>
    </li>
  );
});
