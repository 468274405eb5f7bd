// Git questions about a registered repository: is this folder a work tree, what is its default
// branch, which branches does it have, whose name goes on the board's commits. Thin I/O over git.ts.
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { GitError, gitLine, runGit } from "./git.js";

/** Why a folder cannot be registered; `problem` is shown to the operator as is. */
export class RepositoryPathError extends Error {
  constructor(readonly problem: string) {
    super(problem);
    this.name = "RepositoryPathError";
  }
}

export interface InspectedRepository {
  /** The work tree's top folder (a path inside a repository registers the repository). */
  path: string;
  defaultBranch: string;
}

/**
 * Checks that `dir` exists and is a git work tree, and reads its default branch: the checked-out
 * branch, else `main` or `master` when one exists, else `main`.
 */
export async function inspectRepository(dir: string): Promise<InspectedRepository> {
  const absolute = path.resolve(dir);
  const info = await stat(absolute).catch(() => null);
  if (info === null) throw new RepositoryPathError(`${absolute} does not exist`);
  if (!info.isDirectory()) throw new RepositoryPathError(`${absolute} is a file, not a folder`);
  const inside = await runGit(["rev-parse", "--is-inside-work-tree"], { cwd: absolute, okCodes: [128] });
  if (inside.code !== 0 || inside.stdout.trim() !== "true") {
    throw new RepositoryPathError(`${absolute} is not a git work tree (run git init there, or give the repository's folder)`);
  }
  const top = await realpath(await gitLine(["rev-parse", "--show-toplevel"], { cwd: absolute }));
  return { path: top, defaultBranch: await defaultBranchOf(top) };
}

export async function defaultBranchOf(repo: string): Promise<string> {
  const head = await runGit(["symbolic-ref", "--quiet", "--short", "HEAD"], { cwd: repo, okCodes: [1] });
  if (head.code === 0 && head.stdout.trim().length > 0) return head.stdout.trim();
  for (const candidate of ["main", "master"]) if ((await resolveBranch(repo, candidate)) !== null) return candidate;
  return "main";
}

export interface BranchInfo {
  name: string;
  commit: string;
  current: boolean;
}

/** Local branches, by name. `current` marks the one checked out in the repository's own work tree. */
export async function listBranches(repo: string): Promise<BranchInfo[]> {
  const { stdout } = await runGit(["for-each-ref", "--format=%(refname:short)%00%(objectname)%00%(HEAD)", "refs/heads"], { cwd: repo });
  return stdout
    .split("\n")
    .filter((l) => l.length > 0)
    .map((line) => {
      const [name = "", commit = "", head = ""] = line.split("\0");
      return { name, commit, current: head === "*" };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The commit a local branch points at, or null when there is no such branch. */
export async function resolveBranch(repo: string, branch: string): Promise<string | null> {
  const r = await runGit(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`], { cwd: repo, okCodes: [1, 128] });
  return r.code === 0 ? r.stdout.trim() : null;
}

/** The board's name on commits when the repository (and the user's global config) has none. */
export const BOARD_IDENTITY = { name: "Kandev", email: "kandev@localhost" } as const;

/**
 * The identity for commits the board makes in `repo`: the repository's own `user.name` and
 * `user.email` (its config, including the user's global one), else the board default. Passed to git
 * with `-c`, so a fresh machine with no identity can still commit.
 */
export async function commitIdentity(repo: string): Promise<{ name: string; email: string }> {
  const read = async (key: string) => {
    const r = await runGit(["config", "--get", key], { cwd: repo, okCodes: [1] });
    const value = r.stdout.trim();
    return r.code === 0 && value.length > 0 ? value : null;
  };
  const [name, email] = [await read("user.name"), await read("user.email")];
  return name !== null && email !== null ? { name, email } : { ...BOARD_IDENTITY };
}

export function identityArgs(identity: { name: string; email: string }): string[] {
  return ["-c", `user.name=${identity.name}`, "-c", `user.email=${identity.email}`];
}

/**
 * True when `dir` is still the top of a work tree git recognises (a repository moved or deleted is
 * not, nor a folder whose .git is gone inside some other repository).
 */
export async function isWorkTree(dir: string): Promise<boolean> {
  const info = await stat(dir).catch(() => null);
  if (info === null || !info.isDirectory()) return false;
  try {
    const r = await runGit(["rev-parse", "--show-toplevel"], { cwd: dir, okCodes: [128] });
    if (r.code !== 0) return false;
    return (await realpath(r.stdout.trim()).catch(() => "")) === (await realpath(dir).catch(() => dir));
  } catch (err) {
    if (err instanceof GitError && err.code !== "GIT_FAILED") throw err;
    return false;
  }
}
