// Review comments the operator writes on diff lines: kept in the browser's localStorage per task
// until they are sent, and turned into the one prompt "Send review" gives the agent. Pure except
// for the two storage helpers.

export interface ReviewComment {
  id: string;
  path: string;
  side: "old" | "new";
  line: number;
  /** The line's text when the comment was written (quoted back to the agent). */
  quote: string;
  body: string;
}

/** One prompt quoting each comment with `path:line` and the line it is about, in file and line order. */
export function buildReviewPrompt(comments: readonly ReviewComment[], intro: string): string {
  const ordered = [...comments].sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
  const items = ordered.map((c, i) => {
    const where = `${c.path}:${c.line}${c.side === "old" ? " (removed line)" : ""}`;
    const quote = c.quote.length > 0 ? `\n   > ${c.quote}` : "";
    const body = c.body.trim().split("\n").join("\n   ");
    return `${i + 1}. ${where}${quote}\n   ${body}`;
  });
  return `${intro}\n\n${items.join("\n\n")}\n`;
}

const key = (taskId: string) => `kandev.review.${taskId}`;

/** The comments not yet sent for a task (empty when none, or storage is unavailable or corrupt). */
export function loadComments(storage: Pick<Storage, "getItem"> | undefined, taskId: string): ReviewComment[] {
  try {
    const raw = storage?.getItem(key(taskId));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed.filter(isComment) as ReviewComment[]) : [];
  } catch {
    return [];
  }
}

export function saveComments(storage: Pick<Storage, "setItem" | "removeItem"> | undefined, taskId: string, comments: readonly ReviewComment[]): void {
  try {
    if (comments.length === 0) storage?.removeItem(key(taskId));
    else storage?.setItem(key(taskId), JSON.stringify(comments));
  } catch {
    // Storage full or disabled: the comments live until the page closes.
  }
}

function isComment(v: unknown): boolean {
  if (typeof v !== "object" || v === null) return false;
  const c = v as Record<string, unknown>;
  return (
    typeof c.id === "string" &&
    typeof c.path === "string" &&
    typeof c.line === "number" &&
    typeof c.body === "string" &&
    (c.side === "old" || c.side === "new")
  );
}
