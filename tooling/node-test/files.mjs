// The file-system side of the tiers: list a package's test files and read its "testTiers".
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { DEFAULT_TIERS, SKIP_DIRS, isTestFile } from "./tiers.mjs";

/** Every `*.test.ts` under `pkgDir`, relative to it, "/"-separated, sorted. */
export function listTestFiles(pkgDir) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(join(dir, entry.name));
      } else if (isTestFile(entry.name)) {
        out.push(relative(pkgDir, join(dir, entry.name)).split(sep).join("/"));
      }
    }
  };
  walk(pkgDir);
  return out.sort();
}

/** The package's name and tiers (DEFAULT_TIERS when its package.json declares none). */
export function readPackage(pkgDir) {
  const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  return { name: pkg.name ?? relative(process.cwd(), pkgDir), tiers: pkg.testTiers ?? DEFAULT_TIERS };
}
