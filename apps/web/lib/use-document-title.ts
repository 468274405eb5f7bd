import { useEffect } from "react";
import { titleStore } from "./title-store";

/**
 * Names the tab while the calling component is mounted (the title store adds the unread count
 * and keeps Next's own metadata title from overwriting it) and forgets the name afterwards.
 */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title === null) return;
    titleStore.setBase(title);
    return () => {
      if (titleStore.getBase() === title) titleStore.setBase(null);
    };
  }, [title]);
}
