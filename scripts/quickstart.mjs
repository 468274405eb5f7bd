#!/usr/bin/env node
// The README's first command: install (when needed), build, then start the board on its embedded
// defaults (SQLite file ./data/kandev.db, the built-in mock agent). Migrations run at startup.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  TURBO_TELEMETRY_DISABLED: "1",
  // better-sqlite3 compiles from source on machines that cannot reach its prebuilt binaries.
  npm_config_nodedir: process.env.npm_config_nodedir ?? resolve(process.execPath, "../.."),
};

function run(cmd, args) {
  console.log(`\n> ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env });
  if (r.status !== 0) {
    console.error(`\n${cmd} ${args.join(" ")} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status ?? 1);
  }
}

if (!existsSync(resolve(root, "node_modules/.package-lock.json"))) run("npm", ["ci"]);
run("npm", ["run", "build"]);
run("npm", ["start"]);
