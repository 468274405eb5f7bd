import type { DraftStorage } from "./draft-store";

/** The browser's localStorage, or null where there is none or it may not be touched (SSR, blocked storage). */
export function browserDraftStorage(): DraftStorage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}
