// The one door to git. Every git command of the board runs through `runGit`: an argument array
// (never a shell string, so a path with spaces, quotes or non-ASCII characters is just an argument),
// a timeout, and errors that say what went wrong in words an operator can act on.
import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { gitEnvironment } from "../env.js";

/** Why a git command did not give the board what it needed. */
export type GitErrorCode = "GIT_NOT_FOUND" | "GIT_TIMEOUT" | "GIT_FAILED";

export class GitError extends Error {
  constructor(
    readonly code: GitErrorCode,
    message: string,
    readonly args: readonly string[],
    readonly stderr = "",
    readonly exitCode: number | null = null,
  ) {
    super(message);
    this.name = "GitError";
  }
}

export interface GitOptions {
  /** Where git runs (`git -C` is not used, so a relative path in `args` means this folder). */
  cwd: string;
  /** Default 30 s; a push or a clone gets more. */
  timeoutMs?: number;
  /** Added to the board's environment (e.g. GIT_INDEX_FILE for a scratch index). */
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (`merge-tree` says 1 for "conflicts"). */
  okCodes?: readonly number[];
  /** Stdout beyond this many bytes is dropped (and `truncated` set); the command still runs to its end. */
  maxStdoutBytes?: number;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
  truncated: boolean;
}

export const DEFAULT_GIT_TIMEOUT_MS = 30_000;
/** The stdout any command may return before it is cut (a diff has its own, smaller cap). */
const DEFAULT_MAX_STDOUT = 64 * 1024 * 1024;
const STDERR_KEEP = 8 * 1024;

/** The git executable; tests point it at a missing file to see GIT_NOT_FOUND. */
let gitBinary = "git";
export function setGitBinaryForTests(file: string): () => void {
  const before = gitBinary;
  gitBinary = file;
  return () => {
    gitBinary = before;
  };
}

/**
 * Runs `git <args>` in `options.cwd`. Resolves with stdout on exit code 0 (or one of `okCodes`);
 * rejects with GitError GIT_NOT_FOUND when git is not installed, GIT_TIMEOUT when it outlives the
 * timeout (it is killed), GIT_FAILED with git's own stderr otherwise. Git never prompts: there is
 * no terminal to answer it.
 */
export function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  const maxStdout = options.maxStdoutBytes ?? DEFAULT_MAX_STDOUT;
  // -c core.quotePath=false: paths come back as UTF-8 bytes, not octal escapes.
  const fullArgs = ["-c", "core.quotePath=false", ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(gitBinary, fullArgs, {
      cwd: options.cwd,
      env: { ...gitEnvironment(), ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let truncated = false;
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (chunk: Buffer) => {
      if (outBytes >= maxStdout) {
        truncated = true;
        return;
      }
      const room = maxStdout - outBytes;
      if (chunk.length > room) truncated = true;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      out.push(kept);
      outBytes += kept.length;
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.once("error", (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (err.code === "ENOENT" && !existsDir(options.cwd)) {
        reject(new GitError("GIT_FAILED", `the folder ${options.cwd} does not exist`, args));
      } else if (err.code === "ENOENT") {
        reject(new GitError("GIT_NOT_FOUND", "git is not installed on the board's machine (or not on its PATH); install git and try again", args));
      } else {
        reject(new GitError("GIT_FAILED", `could not run git: ${err.message}`, args));
      }
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString("utf8");
      if (timedOut) {
        reject(new GitError("GIT_TIMEOUT", `git ${args[0] ?? ""} did not finish within ${Math.round(timeoutMs / 1000)} s`, args, stderr));
        return;
      }
      const exit = code ?? -1;
      if (exit === 0 || options.okCodes?.includes(exit)) {
        resolve({ stdout, stderr, code: exit, truncated });
        return;
      }
      const said = stderr
        .trim()
        .split("\n")
        .filter((l) => l.trim().length > 0)
        .slice(-3)
        .join(" / ");
      reject(new GitError("GIT_FAILED", `git ${args[0] ?? ""} failed (exit ${exit})${said.length > 0 ? `: ${said}` : ""}`, args, stderr, exit));
    });
  });
}

/** Convenience: stdout with the trailing newline removed. */
export async function gitLine(args: readonly string[], options: GitOptions): Promise<string> {
  return (await runGit(args, options)).stdout.replace(/\n$/, "");
}

/** True when the command exits 0, false on exit 1 (a yes/no question such as `merge-base --is-ancestor`). */
export async function gitTest(args: readonly string[], options: GitOptions): Promise<boolean> {
  return (await runGit(args, { ...options, okCodes: [1] })).code === 0;
}

function existsDir(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
