#!/usr/bin/env node
// Runs every unit and integration test (`*.test.ts` beside the code and under `test/`) in one
// node:test run through tsx. Node 20 finds no .ts files on its own and a quoted glob fails, so we
// list the files explicitly. Pass path fragments to run a subset: `npm run test:unit -- agentctl`.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const roots = ["apps", "packages", "scripts", "tooling"];
const skipDirs = new Set(["node_modules", "dist", ".next", ".turbo", "fixtures"]);

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (skipDirs.has(name)) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (name.endsWith(".test.ts")) out.push(relative(root, full));
  }
  return out;
}

const filters = process.argv.slice(2);
const files = roots
  .flatMap((r) => walk(join(root, r), []))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (files.length === 0) {
  console.error(`no test files matched ${filters.join(" ") || "(all)"}`);
  process.exit(1);
}

const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-reporter=spec", "--test-concurrency=2", "--test-timeout=300000", ...files],
  { cwd: root, stdio: "inherit", env: { ...process.env } },
);
process.exit(result.status ?? 1);
