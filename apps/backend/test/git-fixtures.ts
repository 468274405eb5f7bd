// Real git repositories in temp folders for the workspace tests. No global identity is assumed (a
// fresh machine has none): each repository sets its own, unless asked not to.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "./helpers.js";

/** Runs git synchronously in `cwd` and returns its trimmed stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** Whether git exits 0 (for yes/no questions). */
export function gitOk(cwd: string, ...args: string[]): boolean {
  try {
    execFileSync("git", args, { cwd, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * A repository on `main` with one commit: README.md and a .gitignore that ignores `*.log`. `name`
 * may hold spaces and non-ASCII characters. `identity: false` leaves user.name/email unset.
 */
export function makeRepo(options: { name?: string; parent?: string; identity?: boolean } = {}): string {
  const dir = path.join(options.parent ?? tempDir(), options.name ?? "repo");
  fs.mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  if (options.identity !== false) {
    git(dir, "config", "user.name", "Repo Owner");
    git(dir, "config", "user.email", "owner@example.com");
  }
  fs.writeFileSync(path.join(dir, "README.md"), "# Project\n\nline one\nline two\n");
  fs.writeFileSync(path.join(dir, ".gitignore"), "*.log\n");
  commitAll(dir, "initial", options.identity === false);
  return fs.realpathSync(dir);
}

/** Commits everything in `dir` (with a throwaway identity when the repository has none). */
export function commitAll(dir: string, message: string, anonymous = false): string {
  git(dir, "add", "-A");
  const id = anonymous ? ["-c", "user.name=Fixture", "-c", "user.email=fixture@example.com"] : [];
  execFileSync("git", [...id, "commit", "-q", "-m", message], { cwd: dir, stdio: "ignore" });
  return git(dir, "rev-parse", "HEAD");
}

/** Points git at an empty global config for this process and its children: no identity, no aliases. */
export function isolateGlobalGitConfig(): void {
  const file = path.join(tempDir(), "gitconfig");
  fs.writeFileSync(file, "");
  process.env.GIT_CONFIG_GLOBAL = file;
  process.env.GIT_CONFIG_NOSYSTEM = "1";
}
