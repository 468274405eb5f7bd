// Finding an agent's executable the way spawn() will, without running anything: a name without a
// slash is looked up on PATH, a path is taken relative to the agent's working directory.
import fs from "node:fs";
import path from "node:path";

/** What the file system says about one candidate path. */
export type FileVerdict = "ok" | "missing" | "not_executable";

/** Checks one path; injected so the resolution rules are tested without touching the disk. */
export type FileCheck = (file: string) => FileVerdict;

export type Resolution = { ok: true; path: string } | { ok: false; reason: "missing" | "not_executable"; file: string; searched: string[] };

export interface ResolveOptions {
  /** The PATH the agent will get (the profile's own PATH, else the board's). */
  pathEnv: string | undefined;
  /** The agent's working directory: relative paths with a slash resolve against it. */
  cwd: string;
  check?: FileCheck;
}

/** A regular file we may execute. Directories count as missing, as they do for execvp. */
export const checkFile: FileCheck = (file) => {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return "missing";
  }
  if (!stat.isFile()) return "missing";
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return "ok";
  } catch {
    return "not_executable";
  }
};

/**
 * Resolves `file` like spawn()/execvp: with a slash it is one path (relative to `cwd`); without,
 * every PATH entry is tried in order and the first executable match wins. A match that exists but
 * is not executable is reported as such when nothing executable is found further on.
 */
export function resolveExecutable(file: string, options: ResolveOptions): Resolution {
  const check = options.check ?? checkFile;
  if (file.length === 0) return { ok: false, reason: "missing", file, searched: [] };
  if (file.includes("/")) {
    const full = path.resolve(options.cwd, file);
    const verdict = check(full);
    return verdict === "ok" ? { ok: true, path: full } : { ok: false, reason: verdict, file, searched: [full] };
  }
  const dirs = (options.pathEnv ?? "").split(path.delimiter).map((d) => (d === "" ? "." : d));
  const searched: string[] = [];
  let notExecutable = false;
  for (const dir of dirs) {
    const full = path.resolve(options.cwd, dir, file);
    searched.push(full);
    const verdict = check(full);
    if (verdict === "ok") return { ok: true, path: full };
    if (verdict === "not_executable") notExecutable = true;
  }
  return { ok: false, reason: notExecutable ? "not_executable" : "missing", file, searched };
}
