import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/**
 * The folder of an installed workspace package. Tries `<name>/package.json` through the resolver
 * first; packages whose `exports` do not list package.json are found on the resolver's own search
 * path instead, so no package has to export its manifest for us.
 */
export function resolvePackageDir(name: string): string {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    for (const dir of require.resolve.paths(name) ?? []) {
      const manifest = path.join(dir, name, "package.json");
      if (fs.existsSync(manifest)) return path.dirname(fs.realpathSync(manifest));
    }
    throw new Error(`cannot find package ${name} (run npm install at the repo root)`);
  }
}

/** packages/agentctl/dist/cli.js */
export function agentctlCliPath(): string {
  return path.join(resolvePackageDir("@kandev/agentctl"), "dist", "cli.js");
}

/** packages/mock-agent/dist/cli.js */
export function mockAgentCliPath(): string {
  return path.join(resolvePackageDir("@kandev/mock-agent"), "dist", "cli.js");
}

/** apps/web, found from this file (src/ and dist/ sit at the same depth in apps/backend). */
export function defaultWebDir(): string {
  return fileURLToPath(new URL("../../web", import.meta.url));
}
