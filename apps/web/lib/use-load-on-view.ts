import { useCallback, useRef } from "react";

/**
 * A ref for the element at the loaded end of a list: `onView` runs each time the operator scrolls
 * it into view. Coming into view without a scroll does not count (where it sits when it mounts, a
 * search that shortens the page): only reaching for more loads more, and a list whose end is in
 * sight keeps its button.
 */
export function useLoadOnView<T extends Element>(onView: () => void): (el: T | null) => (() => void) | undefined {
  const latest = useRef(onView);
  latest.current = onView;
  return useCallback((el: T | null) => {
    if (el === null || typeof IntersectionObserver === "undefined") return undefined;
    let initial = true;
    let lastY = window.scrollY;
    const observer = new IntersectionObserver((entries) => {
      const scrolled = window.scrollY !== lastY;
      lastY = window.scrollY;
      if (initial) initial = false;
      else if (scrolled && entries.some((e) => e.isIntersecting)) latest.current();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
}
