// What a capture found, and its text form. Pure.
import { diffJson, formatDiffEntry, type DiffEntry } from "./json-diff.js";

export type FileStatus =
  /** The compared-with folder has no such file. */
  | { file: string; status: "new" }
  | { file: string; status: "unchanged" }
  /** An empty diff means the same values in another key order or layout. */
  | { file: string; status: "changed"; diff: DiffEntry[]; note?: string }
  | { file: string; status: "failed"; message: string }
  /** A wire capture already in the target folder: left alone. */
  | { file: string; status: "wire-kept" }
  /** A wire capture absent from the target folder, copied from another checked-in version. */
  | { file: string; status: "wire-copied"; from: string };

export interface CaptureReport {
  /** `<package>@<installed version>`. */
  installed: string;
  /** The folder this version's fixtures go in (`bridge-<version>`). */
  folder: string;
  /** "the npm registry" or the --from path. */
  source: string;
  /** The checked-in folder the recorded inputs were read from. */
  inputsFrom: string;
  /** The checked-in folder compared with, and whether it is the same version. */
  comparedWith: { folder: string; sameVersion: boolean };
  /** Where bridge-<version>/ goes (as given to the user: relative to the cwd when inside it). */
  target: string;
  files: FileStatus[];
  dryRun: boolean;
  /** Files actually (re)written into the target; empty on a dry run or a failed capture. */
  written: string[];
}

/** Compares a freshly built file with the checked-in bytes (undefined when there is no such file). */
export function compareWithBaseline(file: string, baselineText: string | undefined, text: string): FileStatus {
  if (baselineText === undefined) return { file, status: "new" };
  if (baselineText === text) return { file, status: "unchanged" };
  let before: unknown;
  try {
    before = JSON.parse(baselineText);
  } catch {
    return { file, status: "changed", diff: [], note: "the checked-in file is not valid JSON" };
  }
  const diff = diffJson(before, JSON.parse(text));
  return diff.length === 0
    ? { file, status: "changed", diff, note: "same values, different key order or layout" }
    : { file, status: "changed", diff };
}

/** Diff lines shown per file before "... and N more". */
export const MAX_DIFF_LINES = 20;

function fileLines(f: FileStatus): string[] {
  const row = (label: string, rest = "") => `  ${label.padEnd(10)} ${f.file}${rest}`;
  switch (f.status) {
    case "new":
      return [row("new")];
    case "unchanged":
      return [row("unchanged")];
    case "changed": {
      const shown = f.diff.slice(0, MAX_DIFF_LINES).map((d) => `      ${formatDiffEntry(d)}`);
      const more = f.diff.length > MAX_DIFF_LINES ? [`      ... and ${f.diff.length - MAX_DIFF_LINES} more`] : [];
      return [row("changed", f.note ? ` (${f.note})` : ""), ...shown, ...more];
    }
    case "failed":
      return [row("FAILED", `: ${f.message}`)];
    case "wire-kept":
      return [row("kept", " (wire capture from a live bridge + CLI; not regenerated)")];
    case "wire-copied":
      return [row("copied", ` from the checked-in ${f.from} (wire captures need a live bridge + CLI and are never regenerated)`)];
    default: {
      const unreachable: never = f;
      throw new Error(`unknown file status ${JSON.stringify(unreachable)}`);
    }
  }
}

function count(files: FileStatus[], status: FileStatus["status"]): number {
  return files.filter((f) => f.status === status).length;
}

/** The capture report as printed. */
export function formatReport(r: CaptureReport): string {
  const failed = count(r.files, "failed");
  const generated = r.files.length - count(r.files, "wire-kept") - count(r.files, "wire-copied");
  const same = r.comparedWith.sameVersion ? "checked in, same version" : "the newest checked-in version; this version is not checked in";
  const borrowed = r.files.filter((f) => f.status === "wire-copied" && f.from !== r.folder).length;
  const summary =
    `${generated} generated: ${count(r.files, "unchanged")} unchanged, ${count(r.files, "changed")} changed, ` +
    `${count(r.files, "new")} new, ${failed} failed.`;
  let outcome: string;
  if (failed > 0) outcome = "Capture incomplete: nothing written.";
  else if (r.dryRun) outcome = "Dry run: nothing written.";
  else if (r.written.length === 0) outcome = `Nothing to write: ${r.target} is up to date.`;
  else outcome = `Wrote ${r.written.length} file(s) to ${r.target}.`;
  const wireNote =
    borrowed > 0
      ? [
          `Note: ${borrowed} wire capture(s) ${r.dryRun || failed > 0 ? "would be" : "were"} copied forward from another version, not ` +
            `captured from ${r.installed}: re-capture them from a live bridge (docs/BRIDGE-UPGRADE.md).`,
        ]
      : [];
  return [
    `fixtures:capture ${r.installed} (installed from ${r.source})`,
    `  inputs from   ${r.inputsFrom}`,
    `  compared with ${r.comparedWith.folder} (${same})`,
    `  target        ${r.target}`,
    "",
    ...r.files.flatMap(fileLines),
    "",
    summary,
    ...wireNote,
    outcome,
  ].join("\n");
}
