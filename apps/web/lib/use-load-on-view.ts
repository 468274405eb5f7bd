import { type RefObject, useEffect, useRef } from "react";

/**
 * Calls `onView` each time the element scrolls into view. Where it sits when it first mounts does
 * not count: only the operator's scrolling loads, so nothing loads that nobody reached for, and a
 * short list whose end is already in sight keeps its button.
 */
export function useLoadOnView(ref: RefObject<Element | null>, onView: () => void): void {
  const latest = useRef(onView);
  latest.current = onView;
  useEffect(() => {
    const el = ref.current;
    if (el === null || typeof IntersectionObserver === "undefined") return;
    let initial = true;
    const observer = new IntersectionObserver((entries) => {
      const inView = entries.some((e) => e.isIntersecting);
      if (initial) initial = false;
      else if (inView) latest.current();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
}
