#!/usr/bin/env node
// `node tooling/node-test/all.mjs <tier> [fragment...] [--turbo-flag...]`: the root's
// `npm run test:<tier>`. turbo runs `test:<tier>` in every package after the builds it depends on
// (turbo.json), so no test runs against a stale dist/. Each package prints node's own summary; this
// script adds them up and closes with one summary in the same format, so the last lines of the run
// say how many tests ran in all the packages together.
//
// Fragments are passed to every package's runner (a path fragment, as `npm run test:unit -- agentctl`
// always meant); arguments starting with "--" go to turbo (`-- --filter=@kandev/agentctl`).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { addSummaryLine, formatSummary } from "./tiers.mjs";

// turbo's parallel tasks on top of node:test's own (KANDEV_TEST_CONCURRENCY, 2 files per package).
// The integration tier runs two packages at a time: its processes mostly wait on pipes and
// timers (a whole .ci/run used 49% of two cores, integration 5.5 min of it one package at a
// time), so agentctl's, the scripts' and the mock agent's files overlap the backend's. The soak
// tier stays one at a time. Unit tests are pure and share the cores.
const TURBO_CONCURRENCY = { unit: "2", integration: "2", soak: "1" };

const [tier, ...rest] = process.argv.slice(2);
if (!tier) {
  console.error("usage: all.mjs <tier> [path-fragment...] [--turbo-flag...]");
  process.exit(2);
}
const turboFlags = rest.filter((a) => a.startsWith("--"));
const fragments = rest.filter((a) => !a.startsWith("--"));
const args = [
  "run",
  `test:${tier}`,
  `--concurrency=${TURBO_CONCURRENCY[tier] ?? "1"}`,
  "--log-order=grouped",
  // Every package's tests run even when one fails, so one run shows all the failures.
  "--continue",
  ...turboFlags,
  ...(fragments.length ? ["--", ...fragments] : []),
];

const started = Date.now();
const totals = {};
let runs = 0;
const child = spawn("turbo", args, { stdio: ["inherit", "pipe", "inherit"] });
createInterface({ input: child.stdout }).on("line", (line) => {
  process.stdout.write(`${line}\n`);
  if (addSummaryLine(totals, line) && line.includes("\u2139 tests ")) runs++;
});
child.on("close", (code, signal) => {
  console.log(`\n# ${tier} tier, ${runs} package run(s) added up:`);
  console.log(formatSummary(totals, Date.now() - started));
  // exitCode, not exit(): on a pipe (CI) stdout is written asynchronously, and exit() would cut
  // the last package's lines and this summary off the log.
  if (code === 0 && fragments.length > 0 && (totals.tests ?? 0) === 0) {
    console.error(`no ${tier} test files matched ${fragments.join(" ")}`);
    process.exitCode = 1;
    return;
  }
  process.exitCode = code ?? (signal ? 1 : 0);
});
