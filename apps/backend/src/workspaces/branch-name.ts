// How a task's branch and worktree folder are named. Pure, so every rule is tested directly.

/** Longest slug taken from a title; branch names stay readable in `git branch` and on the card. */
export const MAX_SLUG_LENGTH = 40;
/** How many characters of the task id follow the slug. */
export const SHORT_ID_LENGTH = 8;
export const BRANCH_PREFIX = "kandev/";

/**
 * A title as a branch-safe slug: lowercase ASCII letters, digits and single dashes. Accents are
 * dropped to their base letter ("Über" -> "uber"); anything else becomes a dash; "task" when
 * nothing is left (a title of only emoji or CJK characters).
 */
export function slugify(title: string): string {
  const ascii = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  const slug = ascii
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/g, "");
  return slug.length > 0 ? slug : "task";
}

/** The short id used in names: the task id's first characters, letters and digits only. */
export function shortId(taskId: string): string {
  const clean = taskId.toLowerCase().replace(/[^a-z0-9]/g, "");
  return (clean.length > 0 ? clean : "x").slice(0, SHORT_ID_LENGTH);
}

/** `kandev/<slug>-<short id>`, the first choice for a task's branch. */
export function branchBaseName(title: string, taskId: string): string {
  return `${BRANCH_PREFIX}${slugify(title)}-${shortId(taskId)}`;
}

/**
 * The branch name to use: the base name, or the base name with `-2`, `-3`... when it is taken
 * (`taken` says whether a name exists). Undefined after `maxTries` names, which only a repository
 * full of look-alike branches reaches.
 */
export function uniqueName(base: string, taken: (name: string) => boolean, maxTries = 100): string | undefined {
  for (let i = 1; i <= maxTries; i++) {
    const name = i === 1 ? base : `${base}-${i}`;
    if (!taken(name)) return name;
  }
  return undefined;
}

/** The worktree folder's name under KANDEV_WORKTREES_DIR: the branch without its prefix. */
export function folderNameFor(branch: string): string {
  return branch.startsWith(BRANCH_PREFIX) ? branch.slice(BRANCH_PREFIX.length) : branch.replace(/\//g, "-");
}
