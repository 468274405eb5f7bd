/** Picks the unit for "n units ago" so the number stays small; pure, so it renders the same everywhere. */
export function relativeParts(then: Date, now: Date): { value: number; unit: Intl.RelativeTimeFormatUnit } {
  const seconds = Math.round((then.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return { value: 0, unit: "second" };
  if (abs < 45 * 60) return { value: Math.round(seconds / 60), unit: "minute" };
  if (abs < 22 * 3600) return { value: Math.round(seconds / 3600), unit: "hour" };
  if (abs < 26 * 86400) return { value: Math.round(seconds / 86400), unit: "day" };
  if (abs < 320 * 86400) return { value: Math.round(seconds / (30 * 86400)), unit: "month" };
  return { value: Math.round(seconds / (365 * 86400)), unit: "year" };
}

/**
 * One formatter per language: building an Intl.RelativeTimeFormat costs far more than using it, and
 * the board formats one date per row (a thousand rows on every render).
 */
const formatters = new Map<string, Intl.RelativeTimeFormat>();

export function relativeFormatter(lang: string): Intl.RelativeTimeFormat {
  let formatter = formatters.get(lang);
  if (formatter === undefined) {
    formatter = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
    formatters.set(lang, formatter);
  }
  return formatter;
}

/** "just now", "5 minutes ago", ... in the given language. */
export function formatRelative(iso: string, now: Date, lang: string): string {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return iso;
  const { value, unit } = relativeParts(then, now);
  return relativeFormatter(lang).format(value, unit);
}
