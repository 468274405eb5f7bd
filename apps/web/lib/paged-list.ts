// The board and the transcript load their lists in pages (docs/API.md "Paged lists"): both walk
// from the newest items towards older ones, the next page's cursor coming with each page. These
// are the pure rules for keeping such a paged cache whole while live updates arrive. No I/O.

/** One page as the API gave it: its items and the cursor of the page after it (null: the last). */
export interface Page<T> {
  items: T[];
  next: string | null;
}

/** The loaded pages, newest page first, shaped like react-query's InfiniteData. */
export interface Pages<T> {
  pages: Page<T>[];
  pageParams: (string | null)[];
}

/** How a list sorts its items: replaces by id, adds new ones, and returns the page in order. */
export type Merge<T> = (list: readonly T[], updates: readonly T[]) => T[];

interface Dated {
  id: string;
  created_at: string;
}

/** The cursor react-query should fetch next; undefined ends the list. */
export function nextCursor<T>(last: Page<T>): string | undefined {
  return last.next ?? undefined;
}

function oldest<T extends Dated>(items: readonly T[]): string | undefined {
  let out: string | undefined;
  for (const item of items) if (out === undefined || item.created_at < out) out = item.created_at;
  return out;
}

/**
 * Which loaded page an item not in the cache belongs to: the first page whose oldest item is not
 * newer than it, or the last page when the list ends there. -1 when it is older than everything
 * loaded and more pages follow: it arrives with its own page, so adding it now would duplicate it.
 */
function pageFor<T extends Dated>(pages: readonly Page<T>[], item: T): number {
  for (let i = 0; i < pages.length; i++) {
    const page = pages[i] as Page<T>;
    const floor = oldest(page.items);
    if (page.next === null || (floor !== undefined && item.created_at >= floor)) return i;
  }
  return -1;
}

/** The pages with `updates` applied: each replaces its item where it is, or joins the page it belongs to. */
export function upsertPaged<T extends Dated>(data: Pages<T>, updates: readonly T[], merge: Merge<T>): Pages<T> {
  if (updates.length === 0) return data;
  const byPage: T[][] = data.pages.map(() => []);
  for (const item of updates) {
    let at = data.pages.findIndex((page) => page.items.some((x) => x.id === item.id));
    if (at === -1) at = pageFor(data.pages, item);
    if (at !== -1) byPage[at]?.push(item);
  }
  const pages = data.pages.map((page, i) => {
    const mine = byPage[i] ?? [];
    return mine.length === 0 ? page : { ...page, items: merge(page.items, mine) };
  });
  return { ...data, pages };
}

/** The pages without the item `id` (deleted, or gone from the list). */
export function removePaged<T extends { id: string }>(data: Pages<T>, id: string): Pages<T> {
  if (!data.pages.some((page) => page.items.some((x) => x.id === id))) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((x) => x.id !== id) })) };
}

/**
 * A freshly fetched page with the live updates that arrived while it was fetched (LiveLedger).
 * The first page takes new items that belong in it; a later page only takes newer versions of its
 * own items, since whatever is newer than it lives on an earlier page.
 */
export function withLive<T extends Dated>(page: Page<T>, live: readonly T[], first: boolean, merge: Merge<T>): Page<T> {
  if (live.length === 0) return page;
  if (first) return upsertPaged({ pages: [page], pageParams: [null] }, live, merge).pages[0] as Page<T>;
  const own = live.filter((item) => page.items.some((x) => x.id === item.id));
  return own.length === 0 ? page : { ...page, items: merge(page.items, own) };
}

/** Every loaded item once, in page order (the board: newest first). */
export function flattenPages<T extends { id: string }>(data: Pages<T>): T[] {
  return dedupe(data.pages.flatMap((page) => page.items));
}

/** Every loaded item once, oldest page first (the transcript reads from its beginning). */
export function flattenPagesOldestFirst<T extends { id: string }>(data: Pages<T>): T[] {
  return dedupe([...data.pages].reverse().flatMap((page) => page.items));
}

function dedupe<T extends { id: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => (seen.has(item.id) ? false : (seen.add(item.id), true)));
}
