// What keeps a profile's agent from starting on this machine now, said when the profile is read
// (and so right after it is saved): the same checks a session start makes (start-errors.ts), each
// with a code the web app translates and the English sentence the API gives.
import path from "node:path";
import type { ProfileProblem } from "@kandev/protocol";
import { resolveExecutable, type FileCheck } from "./executable.js";
import { checkDir, cwdProblemReason, missingCommandReason, type DirCheck } from "./start-errors.js";

export interface ProfileCheckContext {
  /** The board's own PATH (a profile's env.PATH wins, as at start). */
  pathEnv: string | undefined;
  /** The board's working directory: a relative cwd is taken from here. */
  boardCwd: string;
  check?: FileCheck;
  checkDir?: DirCheck;
}

export function profileProblems(
  profile: { command: readonly string[]; env: Record<string, string> | null; cwd: string | null },
  ctx: ProfileCheckContext,
): ProfileProblem[] {
  const problems: ProfileProblem[] = [];
  const cwd = path.resolve(ctx.boardCwd, profile.cwd ?? ".");
  const dir = (ctx.checkDir ?? checkDir)(cwd);
  const cwdReason = cwdProblemReason(profile.cwd ?? cwd, dir);
  if (cwdReason !== null) problems.push({ path: "cwd", code: dir === "missing" ? "cwd_missing" : "cwd_not_directory", message: cwdReason });
  const file = profile.command[0] ?? "";
  // A relative path is taken from the working directory: with none there, it cannot be judged.
  if (dir !== "ok" && file.includes("/") && !path.isAbsolute(file)) return problems;
  const resolved = resolveExecutable(file, { pathEnv: profile.env?.PATH ?? ctx.pathEnv, cwd, ...(ctx.check && { check: ctx.check }) });
  if (!resolved.ok) {
    problems.push({
      path: "command",
      code: resolved.reason === "missing" ? "command_not_found" : "command_not_executable",
      message: missingCommandReason(profile.command, resolved),
    });
  }
  return problems;
}
