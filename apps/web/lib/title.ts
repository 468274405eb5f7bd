/** The tab title with the number of unanswered questions in front: "(2) Board · Kandev". */
export function withCount(title: string, count: number): string {
  const base = stripCount(title);
  return count > 0 ? `(${count}) ${base}` : base;
}

/** Removes a count this module put in front of a title. */
export function stripCount(title: string): string {
  return title.replace(/^\(\d+\) /, "");
}
