import type { Task } from "@kandev/protocol";

/**
 * The questions and permission requests the operator has been told about and not yet looked at,
 * for the count in the tab title. One entry per question's pending id (the server sends one
 * notification per question, F9; a repeat is still counted once), one per task waiting on a
 * permission (learned from its `task.updated`: permissions send no notification). Entries go when
 * the operator opens the task or the task stops waiting.
 */
export type Unread = ReadonlyMap<string, string>; // pending id (or notification id) -> task id

export const NO_UNREAD: Unread = new Map();

export function addUnread(unread: Unread, key: string, taskId: string): Unread {
  if (unread.get(key) === taskId) return unread;
  return new Map(unread).set(key, taskId);
}

/** Forgets every entry of one task (the operator opened it, or it no longer waits for input). */
export function clearTask(unread: Unread, taskId: string): Unread {
  if (![...unread.values()].includes(taskId)) return unread;
  return new Map([...unread].filter(([, t]) => t !== taskId));
}

export function unreadCount(unread: Unread): number {
  return unread.size;
}

/**
 * A task's update as the count reads it: a task that stopped waiting on a question loses its
 * entries, and a task now waiting on a permission gets one, unless it is the task on screen.
 */
export function withTaskUpdate(unread: Unread, task: Pick<Task, "id" | "pending_action">, viewingTaskId: string | null): Unread {
  if (task.pending_action === "clarification") return unread;
  const key = `permission:${task.id}`;
  if (task.pending_action === "permission" && task.id !== viewingTaskId) {
    const others = [...unread].filter(([k, t]) => t === task.id && k !== key);
    return addUnread(others.length === 0 ? unread : clearTask(unread, task.id), key, task.id);
  }
  return clearTask(unread, task.id);
}
