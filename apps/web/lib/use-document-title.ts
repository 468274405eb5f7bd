import { useEffect } from "react";

/**
 * Shows `title` as the document title while the calling component is mounted and restores the
 * previous one afterwards. Next.js streams its own metadata <title> in after hydration, so the
 * title is re-applied whenever the head changes.
 */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title === null) return;
    const previous = document.title;
    const apply = () => {
      if (document.title !== title) document.title = title;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => {
      observer.disconnect();
      document.title = previous;
    };
  }, [title]);
}
