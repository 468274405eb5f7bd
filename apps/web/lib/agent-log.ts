import type { SessionLogLine } from "@kandev/protocol";

/** As many lines as the board keeps per session (GET /sessions/:id/logs). */
export const AGENT_LOG_MAX_LINES = 500;

/** Live lines (`session.log`) appended to what the page has, newest last, bounded like the board's ring. */
export function appendLogLines(current: readonly SessionLogLine[], added: readonly SessionLogLine[], max = AGENT_LOG_MAX_LINES): SessionLogLine[] {
  const out = [...current, ...added];
  return out.length > max ? out.slice(out.length - max) : out;
}

/**
 * A fresh fetch of the log, plus the live lines that arrived after the newest line it holds: a line
 * pushed while the fetch was in flight is kept whether or not the fetch already had it.
 */
export function mergeFetchedLog(
  fetched: readonly SessionLogLine[],
  cached: readonly SessionLogLine[] | undefined,
  max = AGENT_LOG_MAX_LINES,
): SessionLogLine[] {
  const newest = fetched.at(-1);
  if (cached === undefined || newest === undefined) return appendLogLines(fetched, newest === undefined ? (cached ?? []) : [], max);
  const seenAtNewest = fetched.filter((l) => l.at === newest.at).map((l) => l.text);
  const later = cached.filter((l) => {
    if (l.at > newest.at) return true;
    if (l.at < newest.at) return false;
    // Same millisecond as the newest fetched line: keep it unless the fetch has that text there.
    const i = seenAtNewest.indexOf(l.text);
    if (i === -1) return true;
    seenAtNewest.splice(i, 1);
    return false;
  });
  return appendLogLines(fetched, later, max);
}
