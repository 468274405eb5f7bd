// Command line of `npm run fixtures:capture`. Pure: parses argv, throws UsageError with a readable message.
import { isAbsolute, resolve } from "node:path";
import { UsageError } from "./errors.js";
import { BRIDGE_PACKAGE, isExactVersion } from "./versions.js";

export const USAGE = `usage: npm run fixtures:capture -- --bridge <version> [options]

Installs ${BRIDGE_PACKAGE}@<version> into a temporary folder (npm install --omit=optional
--ignore-scripts), calls its own dist/elicitation.js builders with the inputs recorded in the newest
checked-in fixtures, writes bridge-<version>/ and reports what changed against the checked-in set.

  --bridge <version>   the bridge version (an exact version, a range or a dist-tag such as latest;
                       the folder is named after the version npm actually installed)
  --from <path>        install from a package tarball or folder instead of the registry (offline);
                       --bridge is then optional and, when given, must be the package's exact version
  --out <dir>          write bridge-<version>/ under <dir> (default: the checked-in fixtures folder)
  --fixtures <dir>     the checked-in fixtures: where the inputs are read and the comparison is made
                       (default: packages/agentctl/test/fixtures)
  --dry-run            install, build and report, but write nothing

Exit status: 0 when every fixture was built (and written unless --dry-run), 1 when the capture
failed (npm error, no dist/elicitation.js, a builder missing or throwing: nothing is written),
2 on a usage error.`;

export interface CaptureArgs {
  /** What to install from the registry, or, with `from`, the exact version it must be (or null). */
  bridge: string | null;
  /** Absolute path of a tarball or package folder to install instead of the registry. */
  from: string | null;
  /** Absolute folder that receives `bridge-<version>/`. */
  out: string;
  /** Absolute folder of the checked-in `bridge-*` folders. */
  fixtures: string;
  dryRun: boolean;
}

/**
 * Parses the arguments after `--`. `cwd` resolves relative paths; `defaultFixtures` is the
 * checked-in fixtures folder (absolute).
 */
export function parseCaptureArgs(argv: readonly string[], cwd: string, defaultFixtures: string): CaptureArgs {
  const values = new Map<string, string>();
  let dryRun = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--dry-run") {
      dryRun = true;
      continue;
    }
    const eq = arg.indexOf("=");
    const [name, inline] = arg.startsWith("--") && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    if (!["--bridge", "--from", "--out", "--fixtures"].includes(name)) throw new UsageError(`unknown argument: ${arg}`);
    if (values.has(name)) throw new UsageError(`${name} given twice`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === "" || (inline === undefined && value.startsWith("--"))) {
      throw new UsageError(`${name} needs a value`);
    }
    values.set(name, value);
  }
  const bridge = values.get("--bridge") ?? null;
  const from = values.get("--from") ?? null;
  if (bridge === null && from === null) throw new UsageError("--bridge <version> is required (or --from <tarball-or-dir>)");
  if (bridge !== null) {
    // Anything that is not a version, range or tag (paths, URLs, git specs) belongs in --from.
    if (/[/\\:@]/.test(bridge) || bridge.trim() !== bridge || bridge.startsWith("-")) {
      throw new UsageError(`--bridge ${JSON.stringify(bridge)} is not a version, range or dist-tag; use --from for a local package`);
    }
    if (from !== null && !isExactVersion(bridge)) {
      throw new UsageError(`with --from, --bridge must be the package's exact version (got ${JSON.stringify(bridge)})`);
    }
  }
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(cwd, p));
  const fixtures = abs(values.get("--fixtures") ?? defaultFixtures);
  return {
    bridge,
    from: from === null ? null : abs(from),
    out: abs(values.get("--out") ?? fixtures),
    fixtures,
    dryRun,
  };
}
