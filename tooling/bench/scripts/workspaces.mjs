#!/usr/bin/env node
// Measures the git side of a task on a repository (issue 32), through the public API of the built
// board (node apps/backend/dist/main.js) with the mock agent: creating a task (its worktree is made
// before the agent starts) on a repository of FILES files, reading its changes after the agent
// "edited" EDITED files (plus one file bigger than the diff cap), and merging it into main.
// Medians of RUNS tasks. Usage: node tooling/bench/scripts/workspaces.mjs [files=5000] [edited=200] [runs=3]
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

const [FILES, EDITED, RUNS] = [5000, 200, 3].map((d, i) => Number(process.argv[2 + i] ?? d));
const root = new URL("../../../", import.meta.url).pathname;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-ws-bench-"));
const repo = path.join(dir, "repo");
const git = (...args) => execFileSync("git", args, { cwd: repo, encoding: "utf8", maxBuffer: 1 << 28 }).trim();

fs.mkdirSync(repo);
git("init", "-q", "-b", "main");
git("config", "user.name", "Bench");
git("config", "user.email", "bench@example.com");
for (let i = 0; i < FILES; i++) {
  const sub = path.join(repo, "src", `m${i % 50}`);
  fs.mkdirSync(sub, { recursive: true });
  fs.writeFileSync(path.join(sub, `f${i}.ts`), `${Array.from({ length: 40 }, (_, l) => `export const v${l} = ${i * l};`).join("\n")}\n`);
}
git("add", "-A");
git("commit", "-q", "-m", "initial");

const child = spawn(process.execPath, [path.join(root, "apps/backend/dist/main.js")], {
  env: { PATH: process.env.PATH, HOME: dir, KANDEV_PORT: "0", KANDEV_SERVE_WEB: "false", KANDEV_DB_PATH: path.join(dir, "kandev.db") },
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise((resolve) =>
  createInterface({ input: child.stdout }).on("line", (l) => {
    const m = /^Kandev board: (\S+)$/.exec(l);
    if (m) resolve(m[1]);
  }),
);
async function api(method, p, body) {
  const res = await fetch(`${url}${p}`, { method, headers: { "content-type": "application/json" }, ...(body && { body: JSON.stringify(body) }) });
  const json = res.status === 204 ? null : await res.json();
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}
async function timed(fn) {
  const t = performance.now();
  const value = await fn();
  return [performance.now() - t, value];
}
async function settled(id) {
  for (;;) {
    const t = await api("GET", `/api/v1/tasks/${id}`);
    if (t.state !== "IN_PROGRESS" && t.state !== "TODO") return t;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const figures = { create_ms: [], changes_ms: [], merge_ms: [] };
let last;
try {
  await measure();
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  fs.rmSync(dir, { recursive: true, force: true });
}

async function measure() {
  const repository = await api("POST", "/api/v1/repositories", { path: repo });
  for (let run = 0; run < RUNS; run++) {
    const [createMs, { task }] = await timed(() =>
      api("POST", "/api/v1/tasks", { title: `bench ${run}`, prompt: "hello", agent_profile_id: "mock", repository_id: repository.id }),
    );
    figures.create_ms.push(createMs);
    await settled(task.id);
    const wt = task.workspace.path;
    for (let i = 0; i < EDITED; i++) {
      const f = path.join(wt, "src", `m${i % 50}`, `f${i}.ts`);
      fs.appendFileSync(f, `export const run${run} = ${i};\n`);
    }
    fs.writeFileSync(path.join(wt, `big-${run}.txt`), "x".repeat(80).concat("\n").repeat(40_000)); // 3.2 MB, past the diff cap
    const [changesMs, changes] = await timed(() => api("GET", `/api/v1/tasks/${task.id}/changes`));
    figures.changes_ms.push(changesMs);
    const [mergeMs] = await timed(() => api("POST", `/api/v1/tasks/${task.id}/merge`, { strategy: "squash" }));
    figures.merge_ms.push(mergeMs);
    last = { files: changes.files.length, diff_bytes: changes.diff.length, truncated: changes.truncated === true };
  }
}

const median = (xs) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
console.log(
  JSON.stringify(
    {
      repository_files: FILES,
      edited_files: EDITED,
      runs: RUNS,
      create_task_with_worktree_ms: median(figures.create_ms),
      changes_ms: median(figures.changes_ms),
      merge_squash_ms: median(figures.merge_ms),
      last_changes: last,
    },
    null,
    1,
  ),
);
