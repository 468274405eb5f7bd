// Which tier each test file of a package belongs to. Pure: no file system, so the rules are tested
// directly (tiers.test.ts) and the runners (run.mjs, all.mjs) stay thin.
//
// A package declares its tiers in package.json as "testTiers": { tier: [path, ...] }, each path a
// folder or a file relative to the package ("." is the whole package). A file named explicitly
// belongs to that tier; any other file belongs to the tier with the longest folder containing it.
// So `"unit": ["src"], "integration": ["test", "src/db/migrations.test.ts"]` sends every src test to
// the unit tier except the one that spawns a process. A file no tier claims, or one claimed twice,
// is an error: a test that silently runs in no tier is the failure this guards against.

/** Tiers of a package that declares none: tests beside the code are unit tests, test/ spawns. */
export const DEFAULT_TIERS = Object.freeze({ unit: ["src"], integration: ["test"] });

/** Test files end in `.test.ts`; these folders never hold tests of the package itself. */
export const SKIP_DIRS = new Set(["node_modules", "dist", ".next", ".turbo", "fixtures", "test-results"]);

export function isTestFile(name) {
  return name.endsWith(".test.ts");
}

function normalise(entry) {
  const trimmed = entry.replace(/^\.\/+/, "").replace(/\/+$/, "");
  return trimmed === "." ? "" : trimmed;
}

/**
 * Splits `files` (package-relative, "/"-separated) into tiers.
 * @returns {{ byTier: Record<string, string[]>, unclaimed: string[], conflicts: { file: string, tiers: string[] }[] }}
 */
export function classify(files, tiers = DEFAULT_TIERS) {
  const byTier = Object.fromEntries(Object.keys(tiers).map((t) => [t, []]));
  const unclaimed = [];
  const conflicts = [];
  for (const file of files) {
    const explicit = [];
    let best = { tiers: [], length: -1 };
    for (const [tier, entries] of Object.entries(tiers)) {
      for (const raw of entries) {
        const entry = normalise(raw);
        if (entry === file) {
          if (!explicit.includes(tier)) explicit.push(tier);
        } else if (entry === "" || file.startsWith(`${entry}/`)) {
          if (entry.length > best.length) best = { tiers: [tier], length: entry.length };
          else if (entry.length === best.length && !best.tiers.includes(tier)) best.tiers.push(tier);
        }
      }
    }
    const owners = explicit.length > 0 ? explicit : best.tiers;
    if (owners.length === 0) unclaimed.push(file);
    else if (owners.length > 1) conflicts.push({ file, tiers: owners });
    else byTier[owners[0]].push(file);
  }
  for (const list of Object.values(byTier)) list.sort();
  return { byTier, unclaimed: unclaimed.sort(), conflicts };
}

/** Keeps the files whose repo-relative path contains one of `fragments` (all of them if none). */
export function filterByFragments(files, fragments) {
  if (fragments.length === 0) return files;
  return files.filter((f) => fragments.some((x) => f.includes(x)));
}

const SUMMARY_KEYS = ["tests", "suites", "pass", "fail", "cancelled", "skipped", "todo"];
// node's spec reporter closes with unindented lines like "ℹ pass 12"; under turbo each line carries
// a "pkg:task: " prefix. Indented "ℹ" lines are a test's own diagnostics, never the summary.
const SUMMARY_LINE = new RegExp(`(?:^|: )\\u2139 (${SUMMARY_KEYS.join("|")}) (\\d+)\\s*$`);

/** Adds one line of runner output to `totals` if it is a line of node's closing summary. */
export function addSummaryLine(totals, line) {
  const m = SUMMARY_LINE.exec(line);
  if (!m) return false;
  totals[m[1]] = (totals[m[1]] ?? 0) + Number(m[2]);
  return true;
}

/** The closing summary in node's own spec format, for totals gathered from several runs. */
export function formatSummary(totals, durationMs) {
  const lines = SUMMARY_KEYS.map((k) => `\u2139 ${k} ${totals[k] ?? 0}`);
  lines.push(`\u2139 duration_ms ${Math.round(durationMs)}`);
  return lines.join("\n");
}
