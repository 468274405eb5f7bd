// `npm run acp:probe -- --agent "<command>" [--elicitation on|off|both] ...` (see scripts/acp-probe/args.ts
// for every flag). The wire probe of the elicitation spec (§K) for any ACP agent command: it shows
// whether advertising `elicitation: {form: {}}` changes what the agent does on the wire.
import { parseProbeArgs, UsageError, USAGE } from "./acp-probe/args.js";
import { jsonReport, renderComparison, renderRun, type ProbeRun } from "./acp-probe/report.js";
import { runProbe } from "./acp-probe/run.js";

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let args: ReturnType<typeof parseProbeArgs>;
  try {
    args = parseProbeArgs(argv, process.cwd());
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`acp-probe: ${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  const modes: Array<"off" | "on"> = args.elicitation === "both" ? ["off", "on"] : [args.elicitation];
  const runs: ProbeRun[] = [];
  for (const elicitation of modes) {
    const run = await runProbe({ ...args, elicitation });
    runs.push(run);
    // A command that cannot start will not start the second time either.
    if (run.error?.phase === "start") break;
  }
  if (args.json) {
    process.stdout.write(`${JSON.stringify(jsonReport(runs), null, 2)}\n`);
  } else {
    process.stdout.write(`${runs.map(renderRun).join("\n\n")}\n`);
    if (runs.length === 2) process.stdout.write(`\n${renderComparison(runs[0]!, runs[1]!)}\n`);
  }
  const failed = runs.filter((r) => r.error !== null);
  for (const r of failed)
    process.stderr.write(`acp-probe: run with elicitation ${r.elicitation} failed during ${r.error!.phase}: ${r.error!.message}\n`);
  return failed.length > 0 ? 1 : 0;
}

/** Exits once stdout and stderr have drained, so a piped report is never cut short. */
function exitAfterFlush(code: number): void {
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}

main().then(exitAfterFlush, (err: unknown) => {
  process.stderr.write(`acp-probe: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
