/**
 * Notification preferences that belong to this browser (the board's own settings, which decide
 * what the server sends at all, live in `/api/v1/notification-settings`).
 */
export interface LocalPrefs {
  /** Show a desktop notification (once the browser permission is granted). */
  desktop: boolean;
  /** Play a short beep. */
  sound: boolean;
}

export const DEFAULT_PREFS: LocalPrefs = { desktop: true, sound: false };
export const PREFS_STORAGE_KEY = "kandev.notification-prefs";

/** Reads stored prefs; anything unreadable falls back to the defaults, field by field. */
export function parsePrefs(raw: string | null): LocalPrefs {
  if (!raw) return DEFAULT_PREFS;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return DEFAULT_PREFS;
  }
  const obj = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  return {
    desktop: typeof obj.desktop === "boolean" ? obj.desktop : DEFAULT_PREFS.desktop,
    sound: typeof obj.sound === "boolean" ? obj.sound : DEFAULT_PREFS.sound,
  };
}

export function serializePrefs(prefs: LocalPrefs): string {
  return JSON.stringify({ desktop: prefs.desktop, sound: prefs.sound });
}
