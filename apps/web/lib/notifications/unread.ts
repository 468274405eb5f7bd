/**
 * The questions the operator has been told about and not yet looked at, for the count in the tab
 * title. One entry per pending id (the server sends one notification per question, F9; a repeat
 * is still counted once). Entries go when the operator opens the task or the task stops waiting.
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
