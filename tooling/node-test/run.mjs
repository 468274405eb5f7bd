#!/usr/bin/env node
// `node <path to>/tooling/node-test/run.mjs <tier> [fragment...]`: runs one tier of the current package's tests (the folder npm
// runs a workspace script in) as ONE node:test process through tsx. Node 20 finds no .ts files on its
// own and a quoted glob fails, so the files are listed explicitly. Fragments keep the files whose
// repo-relative path contains one of them (`npm run test:unit -- agentctl`).
//
// The files run from the repo root with repo-relative paths, as they always have: tsx then finds no
// package tsconfig to apply, and a failure names the file as a reader finds it.
import { spawnSync } from "node:child_process";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { listTestFiles, readPackage } from "./files.mjs";
import { classify, filterByFragments } from "./tiers.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkgDir = process.cwd();
const [tier, ...fragments] = process.argv.slice(2);
if (!tier) {
  console.error("usage: run.mjs <tier> [path-fragment...]");
  process.exit(2);
}

const { name, tiers } = readPackage(pkgDir);
if (!(tier in tiers)) {
  console.error(`${name} has no "${tier}" test tier (its tiers: ${Object.keys(tiers).join(", ")})`);
  process.exit(2);
}
const { byTier, unclaimed, conflicts } = classify(listTestFiles(pkgDir), tiers);
if (unclaimed.length > 0 || conflicts.length > 0) {
  // Every test file must run in exactly one tier; say which package.json to fix.
  for (const f of unclaimed) console.error(`${name}: ${f} is in no test tier (package.json "testTiers")`);
  for (const c of conflicts) console.error(`${name}: ${c.file} is in several tiers: ${c.tiers.join(", ")}`);
  process.exit(1);
}

const prefix = relative(repoRoot, pkgDir).split(sep).join("/");
const files = filterByFragments(
  byTier[tier].map((f) => (prefix ? `${prefix}/${f}` : f)),
  fragments,
);
if (files.length === 0) {
  // Not a failure: with fragments most packages match nothing; all.mjs fails if none matched at all.
  console.log(`# ${name}: no ${tier} tests${fragments.length ? ` match ${fragments.join(" ")}` : ""}`);
  process.exit(0);
}

// The unit tier is pure code: its files share one process (in-process.mjs), which makes the tier
// about ten times faster (backend: 18 s instead of 155 s on a loaded 2-core machine). Tiers that
// spawn processes keep node's one-process-per-file isolation, its per-test timeout and two files at
// a time. KANDEV_TEST_ISOLATION=process runs unit files one process each too, to rule out a leak
// between files.
const inProcess = tier === "unit" && process.env.KANDEV_TEST_ISOLATION !== "process";
const concurrency = process.env.KANDEV_TEST_CONCURRENCY ?? "2";
const args = inProcess
  ? ["--import", "tsx", "--test-reporter=spec", join(dirname(fileURLToPath(import.meta.url)), "in-process.mjs"), ...files]
  : ["--import", "tsx", "--test", "--test-reporter=spec", `--test-concurrency=${concurrency}`, "--test-timeout=300000", ...files];
// In one process node's per-file timeout does not apply; a hung unit test still ends the run.
const result = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: "inherit", timeout: inProcess ? 300_000 : undefined });
if (result.error) console.error(`${name}: ${tier} tests did not finish: ${result.error.message}`);
process.exit(result.status ?? 1);
