const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;

/**
 * Parses a duration such as `500ms`, `30s`, `55m`, `1h` or `1h30m` into whole milliseconds.
 * Returns null for anything else (including zero and negative values: a zero timeout is a typo).
 */
export function parseDuration(text: string): number | null {
  const input = text.trim();
  if (input.length === 0) return null;
  let total = 0;
  let rest = input;
  // Compound forms ("1h30m") are read left to right, one number+unit at a time.
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(rest);
    if (!m) return null;
    total += Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
    rest = rest.slice(m[0].length);
  }
  const ms = Math.round(total);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

/** Formats milliseconds the way operators write them, for error messages. */
export function formatDuration(ms: number): string {
  if (ms % UNIT_MS.h === 0) return `${ms / UNIT_MS.h}h`;
  if (ms % UNIT_MS.m === 0) return `${ms / UNIT_MS.m}m`;
  if (ms % UNIT_MS.s === 0) return `${ms / UNIT_MS.s}s`;
  return `${ms}ms`;
}
