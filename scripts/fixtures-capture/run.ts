// One capture: read the recorded inputs, install the bridge, build, compare, write. The I/O shell
// that ties the pure modules together; main.ts only parses arguments and prints.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import type { CaptureArgs } from "./args.js";
import { buildFixtures } from "./build.js";
import { CaptureError } from "./errors.js";
import { readRecordedInputs, WIRE_FILES } from "./inputs.js";
import { withInstalledBridge, type InstallSource } from "./install.js";
import { compareWithBaseline, type CaptureReport, type FileStatus } from "./report.js";
import { BRIDGE_PACKAGE, bridgeVersions, folderOf } from "./versions.js";

function readText(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

function checkedInVersions(fixtures: string): string[] {
  if (!existsSync(fixtures) || !statSync(fixtures).isDirectory()) throw new CaptureError(`no fixtures folder at ${fixtures}`);
  const folders = readdirSync(fixtures).filter((n) => statSync(join(fixtures, n)).isDirectory());
  const versions = bridgeVersions(folders);
  if (versions.length === 0) throw new CaptureError(`no bridge-<version> folder in ${fixtures} to read the inputs from`);
  return versions;
}

function readFixture(dir: string, label: string): (file: string) => unknown {
  return (file) => {
    const text = readText(join(dir, file));
    if (text === undefined) throw new CaptureError(`${label}/${file} is missing: the inputs are read from it`);
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new CaptureError(`${label}/${file} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}

function write(path: string, action: () => void): void {
  try {
    action();
  } catch (err) {
    throw new CaptureError(`cannot write ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Runs one capture and returns its report (files that failed are in it; nothing is then written). */
export async function runCapture(args: CaptureArgs, cwd: string, log: (line: string) => void): Promise<CaptureReport> {
  const show = (p: string) => {
    const rel = relative(cwd, p);
    return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? p : rel;
  };
  const versions = checkedInVersions(args.fixtures);
  const newest = versions[versions.length - 1] as string;
  const inputs = readRecordedInputs(readFixture(join(args.fixtures, folderOf(newest)), folderOf(newest)));
  const source: InstallSource = args.from === null ? { kind: "registry", spec: args.bridge ?? "" } : { kind: "local", path: args.from };

  return withInstalledBridge(
    source,
    ({ version, elicitation }) => {
      if (args.from !== null && args.bridge !== null && args.bridge !== version) {
        throw new CaptureError(`--bridge ${args.bridge} but ${show(args.from)} is ${BRIDGE_PACKAGE}@${version}`);
      }
      const sameVersion = versions.includes(version);
      const compared = folderOf(sameVersion ? version : newest);
      const targetDir = join(args.out, folderOf(version));
      const built = buildFixtures(elicitation, inputs);

      const files: FileStatus[] = built.map((b) =>
        b.ok
          ? compareWithBaseline(b.file, readText(join(args.fixtures, compared, b.file)), b.text)
          : { file: b.file, status: "failed", message: b.message },
      );
      // Wire captures need a live bridge and the real CLI: keep what the target has, else copy the
      // same version's checked-in capture, else the newest version's that has one.
      const wireSources = new Map<string, string>();
      const donors = [...new Set(sameVersion ? [version, ...versions.slice().reverse()] : versions.slice().reverse())];
      for (const file of WIRE_FILES) {
        if (existsSync(join(targetDir, file))) {
          files.push({ file, status: "wire-kept" });
          continue;
        }
        const donor = donors.find((v) => existsSync(join(args.fixtures, folderOf(v), file)));
        if (donor === undefined) {
          files.push({ file, status: "failed", message: "absent, and no checked-in version has this wire capture to copy" });
          continue;
        }
        wireSources.set(file, join(args.fixtures, folderOf(donor), file));
        files.push({ file, status: "wire-copied", from: folderOf(donor) });
      }

      const written: string[] = [];
      if (!args.dryRun && !files.some((f) => f.status === "failed")) {
        write(targetDir, () => mkdirSync(targetDir, { recursive: true }));
        for (const b of built) {
          if (!b.ok) continue;
          const path = join(targetDir, b.file);
          // Untouched when identical: the checked-in files keep their bytes, mode and mtime.
          if (readText(path) === b.text) continue;
          write(path, () => writeFileSync(path, b.text));
          written.push(b.file);
        }
        for (const [file, from] of wireSources) {
          const path = join(targetDir, file);
          write(path, () => copyFileSync(from, path));
          written.push(file);
        }
      }
      return {
        installed: `${BRIDGE_PACKAGE}@${version}`,
        folder: folderOf(version),
        source: args.from === null ? "the npm registry" : show(args.from),
        inputsFrom: folderOf(newest),
        comparedWith: { folder: compared, sameVersion },
        target: show(targetDir),
        files,
        dryRun: args.dryRun,
        written,
      };
    },
    log,
  );
}
