// `npm run fixtures:capture -- --bridge <version> [--out <dir>] [--dry-run]` (see args.ts for every
// flag, docs/BRIDGE-UPGRADE.md for the procedure). Regenerates the bridge conformance fixtures from
// one version of the Claude ACP bridge's own builders and reports what changed.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCaptureArgs, USAGE } from "./args.js";
import { CaptureError, UsageError } from "./errors.js";
import { formatReport } from "./report.js";
import { runCapture } from "./run.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CHECKED_IN_FIXTURES = join(REPO_ROOT, "packages", "agentctl", "test", "fixtures");

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let args: ReturnType<typeof parseCaptureArgs>;
  try {
    args = parseCaptureArgs(argv, process.cwd(), CHECKED_IN_FIXTURES);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`fixtures:capture: ${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  try {
    const report = await runCapture(args, process.cwd(), (line) => process.stderr.write(`fixtures:capture: ${line}\n`));
    process.stdout.write(`${formatReport(report)}\n`);
    return report.files.some((f) => f.status === "failed") ? 1 : 0;
  } catch (err) {
    if (!(err instanceof CaptureError)) throw err;
    process.stderr.write(`fixtures:capture: ${err.message}\n`);
    return 1;
  }
}

/** Exits once stdout and stderr have drained, so a piped report is never cut short. */
function exitAfterFlush(code: number): void {
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}

main().then(exitAfterFlush, (err: unknown) => {
  process.stderr.write(`fixtures:capture: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
