"use client";
import { createContext, useContext } from "react";

/**
 * How a tool call's location opens its file in the task's Changes view: the worktree root (to
 * turn the agent's absolute paths into the view's relative ones) and the opener. Null when the
 * task has no workspace: locations are then plain text.
 */
export interface ChangesLink {
  root: string;
  open: (relativePath: string) => void;
}

export const ChangesLinkContext = createContext<ChangesLink | null>(null);

export function useChangesLink(): ChangesLink | null {
  return useContext(ChangesLinkContext);
}
