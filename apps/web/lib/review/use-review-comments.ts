"use client";
import { useCallback, useEffect, useState } from "react";
import { loadComments, saveComments, type ReviewComment } from "./comments";

const storage = (): Storage | undefined => (typeof window === "undefined" ? undefined : window.localStorage);

/** A task's unsent review comments, kept in localStorage so a reload does not lose them. */
export function useReviewComments(taskId: string) {
  const [comments, setComments] = useState<ReviewComment[]>([]);
  // Read after mount: the server render has no storage, and both renders must agree first.
  useEffect(() => setComments(loadComments(storage(), taskId)), [taskId]);
  const update = useCallback(
    (next: (old: ReviewComment[]) => ReviewComment[]) =>
      setComments((old) => {
        const value = next(old);
        saveComments(storage(), taskId, value);
        return value;
      }),
    [taskId],
  );
  return {
    comments,
    add: (c: Omit<ReviewComment, "id">) => update((old) => [...old, { ...c, id: `${Date.now()}-${Math.random().toString(36).slice(2)}` }]),
    remove: (id: string) => update((old) => old.filter((c) => c.id !== id)),
    clear: () => update(() => []),
  };
}
