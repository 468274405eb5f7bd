// Installs one bridge version into a fresh temporary folder and imports its dist/elicitation.js.
// The I/O shell around the pure modules: npm, the file system, a dynamic import.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BridgeModule } from "./build.js";
import { CaptureError } from "./errors.js";
import { BRIDGE_PACKAGE, isExactVersion } from "./versions.js";

/** The registry (a version, range or tag) or a local tarball/folder. */
export type InstallSource = { kind: "registry"; spec: string } | { kind: "local"; path: string };

export interface InstalledBridge {
  version: string;
  /** The namespace of the installed `dist/elicitation.js`. */
  elicitation: BridgeModule;
}

/** npm gets this long: a registry install of the bridge takes ~15 s here. */
const NPM_TIMEOUT_MS = 5 * 60_000;

interface NpmResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function runNpm(args: string[], cwd: string): Promise<NpmResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", args, { cwd, stdio: ["ignore", "ignore", "pipe"], timeout: NPM_TIMEOUT_MS });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (err: NodeJS.ErrnoException) =>
      reject(new CaptureError(err.code === "ENOENT" ? "npm is not on PATH" : `cannot run npm: ${err.message}`)),
    );
    child.on("close", (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** npm's own error lines (its 404/ETARGET text is the clearest message there is), else its last lines. */
export function npmErrorText(stderr: string): string {
  const lines = stderr.split(/\r?\n/).filter((l) => l.trim() !== "");
  const errors = lines.filter((l) => /^npm (error|ERR!)/.test(l));
  return (errors.length > 0 ? errors : lines.slice(-20)).map((l) => `  ${l}`).join("\n");
}

function describeSource(source: InstallSource): string {
  return source.kind === "registry" ? `${BRIDGE_PACKAGE}@${source.spec}` : source.path;
}

async function install(source: InstallSource, dir: string): Promise<void> {
  const target = describeSource(source);
  if (source.kind === "local" && !existsSync(source.path)) throw new CaptureError(`--from ${source.path}: no such file or directory`);
  // --omit=optional: the bridge's optional platform binaries are large and are not needed to call
  // its builders. --install-links: a folder is copied like a tarball, so its own dependencies are
  // installed here instead of resolving from wherever the folder lives.
  const args = ["install", "--omit=optional", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", `--prefix=${dir}`];
  if (source.kind === "local") args.push("--install-links");
  const result = await runNpm([...args, target], dir);
  if (result.signal !== null) throw new CaptureError(`npm install ${target} was stopped (${result.signal}; timeout ${NPM_TIMEOUT_MS / 1000} s)`);
  if (result.code !== 0) throw new CaptureError(`npm install ${target} failed (exit ${result.code}):\n${npmErrorText(result.stderr)}`);
}

function installedPackageDir(dir: string, from: string): string {
  const packageDir = join(dir, "node_modules", ...BRIDGE_PACKAGE.split("/"));
  if (existsSync(join(packageDir, "package.json"))) return packageDir;
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  const names = Object.keys(manifest.dependencies ?? {}).join(", ") || readdirSync(join(dir, "node_modules")).join(", ");
  throw new CaptureError(`${from} is not ${BRIDGE_PACKAGE} (npm installed: ${names || "nothing"})`);
}

/**
 * Installs the bridge into a fresh temporary folder, imports its own `dist/elicitation.js` (which
 * resolves its dependencies, e.g. its own ACP SDK, from that folder), runs `use` and removes the
 * folder whatever happens.
 */
export async function withInstalledBridge<T>(
  source: InstallSource,
  use: (bridge: InstalledBridge) => Promise<T> | T,
  log: (line: string) => void,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "kandev-bridge-"));
  try {
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "kandev-fixtures-capture", private: true }, null, 2)}\n`);
    const target = describeSource(source);
    log(`installing ${target} into a temporary folder (npm install --omit=optional --ignore-scripts)...`);
    await install(source, dir);
    const packageDir = installedPackageDir(dir, target);
    const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version?: unknown };
    if (typeof version !== "string" || !isExactVersion(version)) {
      throw new CaptureError(`${target}: package.json has no usable version (${JSON.stringify(version)})`);
    }
    const file = join(packageDir, "dist", "elicitation.js");
    if (!existsSync(file)) {
      throw new CaptureError(
        `${BRIDGE_PACKAGE}@${version} has no dist/elicitation.js: the elicitation builders this capture calls are not in this version`,
      );
    }
    let elicitation: BridgeModule;
    try {
      elicitation = (await import(pathToFileURL(file).href)) as BridgeModule;
    } catch (err) {
      throw new CaptureError(
        `importing dist/elicitation.js of ${BRIDGE_PACKAGE}@${version} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    log(`installed ${BRIDGE_PACKAGE}@${version}`);
    return await use({ version, elicitation });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
