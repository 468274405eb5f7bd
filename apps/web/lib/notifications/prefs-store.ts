import { useSyncExternalStore } from "react";
import { DEFAULT_PREFS, PREFS_STORAGE_KEY, parsePrefs, serializePrefs, type LocalPrefs } from "./prefs";

// This browser's notification preferences in localStorage, shared live between the Settings page
// and the notification center (and across tabs through the storage event).

const listeners = new Set<() => void>();
let cache: { raw: string | null; prefs: LocalPrefs } = { raw: null, prefs: DEFAULT_PREFS };

function read(): LocalPrefs {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(PREFS_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (privacy modes); the defaults apply.
  }
  if (raw !== cache.raw) cache = { raw, prefs: parsePrefs(raw) };
  return cache.prefs;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === PREFS_STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function useLocalPrefs(): LocalPrefs {
  return useSyncExternalStore(subscribe, read, () => DEFAULT_PREFS);
}

export function getLocalPrefs(): LocalPrefs {
  return read();
}

export function setLocalPrefs(prefs: LocalPrefs): void {
  try {
    window.localStorage.setItem(PREFS_STORAGE_KEY, serializePrefs(prefs));
  } catch {
    // Not persisted; nothing else to do.
  }
  for (const l of listeners) l();
}
