import { withCount } from "./title";

/**
 * The one writer of `document.title`. Pages name themselves (useDocumentTitle), the notification
 * center sets the unread count, and this store composes "(count) title". Next.js streams its own
 * metadata <title> in after hydration; whatever it writes becomes the fallback name while no page
 * has named itself, so the two never fight.
 */
export class TitleStore {
  private base: string | null = null;
  private count = 0;
  private readonly listeners = new Set<() => void>();

  setBase(title: string | null): void {
    if (this.base === title) return;
    this.base = title;
    this.emit();
  }
  getBase(): string | null {
    return this.base;
  }
  setCount(count: number): void {
    if (this.count === count) return;
    this.count = count;
    this.emit();
  }
  getCount(): number {
    return this.count;
  }
  /** The title to show, given what the page would be called without us. */
  compose(fallback: string): string {
    return withCount(this.base ?? fallback, this.count);
  }
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  private emit(): void {
    for (const l of this.listeners) l();
  }
}

/** One per browser tab. */
export const titleStore = new TitleStore();

/**
 * Keeps `document.title` equal to the composed title, re-applying it whenever someone else (Next's
 * metadata) writes one. Returns a stop function. Browser only.
 */
export function bindDocumentTitle(store: TitleStore, doc: Document): () => void {
  let written = "";
  let fallback = doc.title;
  const apply = () => {
    if (doc.title !== written) fallback = doc.title.replace(/^\(\d+\) /, "");
    const want = store.compose(fallback);
    written = want;
    if (doc.title !== want) doc.title = want;
  };
  apply();
  const observer = new MutationObserver(apply);
  observer.observe(doc.head, { subtree: true, childList: true, characterData: true });
  const off = store.subscribe(apply);
  return () => {
    observer.disconnect();
    off();
  };
}
