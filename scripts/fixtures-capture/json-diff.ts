// A structural diff of two JSON values, for the capture report. Pure.

export type DiffEntry =
  | { path: string; kind: "added"; after: unknown }
  | { path: string; kind: "removed"; before: unknown }
  | { path: string; kind: "changed"; before: unknown; after: unknown };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `a.b[0]["key with spaces"]`: readable, and unambiguous for any key. */
export function joinPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  if (IDENTIFIER.test(key)) return path === "" ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Every path where `before` and `after` differ, deepest first-differing level only: a changed leaf
 * is one entry, a key present on one side only is one entry carrying its whole value. Arrays are
 * compared index by index (an insertion shows as changes plus an addition at the end, which is
 * what it does to the question_N keys too). Key order is not a difference here; the caller
 * compares bytes for that.
 */
export function diffJson(before: unknown, after: unknown, path = ""): DiffEntry[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    const out: DiffEntry[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      const p = joinPath(path, i);
      if (i >= after.length) out.push({ path: p, kind: "removed", before: before[i] });
      else if (i >= before.length) out.push({ path: p, kind: "added", after: after[i] });
      else out.push(...diffJson(before[i], after[i], p));
    }
    return out;
  }
  if (isObject(before) && isObject(after)) {
    const out: DiffEntry[] = [];
    for (const key of Object.keys(before)) {
      const p = joinPath(path, key);
      if (!(key in after)) out.push({ path: p, kind: "removed", before: before[key] });
      else out.push(...diffJson(before[key], after[key], p));
    }
    for (const key of Object.keys(after)) {
      if (!(key in before)) out.push({ path: joinPath(path, key), kind: "added", after: after[key] });
    }
    return out;
  }
  if (Object.is(before, after)) return [];
  return [{ path: path === "" ? "(root)" : path, kind: "changed", before, after }];
}

/** Compact JSON, cut to `max` characters so one huge value cannot swamp the report. */
export function compactJson(value: unknown, max = 100): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** One line per entry: `~ path: before -> after`, `+ path: value`, `- path: value`. */
export function formatDiffEntry(entry: DiffEntry): string {
  switch (entry.kind) {
    case "added":
      return `+ ${entry.path}: ${compactJson(entry.after)}`;
    case "removed":
      return `- ${entry.path}: ${compactJson(entry.before)}`;
    case "changed":
      return `~ ${entry.path}: ${compactJson(entry.before)} -> ${compactJson(entry.after)}`;
    default: {
      const unreachable: never = entry;
      throw new Error(`unknown diff entry ${JSON.stringify(unreachable)}`);
    }
  }
}
