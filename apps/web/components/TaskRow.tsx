"use client";
import { memo } from "react";
import Link from "next/link";
import type { Task } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { formatRelative } from "../lib/relative-time";
import { taskStateIcon } from "../lib/task-state-icon";
import { TaskStateIcon } from "./TaskStateIcon";

/**
 * One task on the board: its live state icon, title and age; the whole row links to the task.
 * Memoized: a live update replaces one task object (the others keep their identity, see
 * live-merge.ts), so only that row re-renders, not the thousand around it. Rows are not
 * prefetched: a board of a thousand links would fetch a thousand task pages it never opens.
 */
export const TaskRow = memo(function TaskRow({ task, now }: { task: Task; now: Date }) {
  const { t, i18n } = useTranslation();
  const icon = taskStateIcon(task);
  return (
    <li className="task-row-item">
      <Link href={`/tasks/${task.id}`} prefetch={false} className={`task-row task-row--${icon}`} data-testid={`task-row-${task.id}`}>
        <TaskStateIcon name={icon} />
        <span className="task-row__body">
          <span className="task-row__title">{task.title}</span>
          <span className="task-row__meta">
            <span>{t(`states.${icon}`)}</span>
            <time dateTime={task.updated_at}>{formatRelative(task.updated_at, now, i18n.language)}</time>
          </span>
        </span>
      </Link>
    </li>
  );
});
