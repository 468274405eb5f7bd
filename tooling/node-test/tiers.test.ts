import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { listTestFiles, readPackage } from "./files.mjs";
import { addSummaryLine, classify, filterByFragments, formatSummary, SKIP_DIRS } from "./tiers.mjs";

describe("classify: which tier runs a test file", () => {
  const tiers = {
    unit: ["src"],
    integration: ["test", "src/db/migrations.test.ts"],
    soak: ["test/reliability/soak.test.ts"],
  };

  test("a file goes to the tier of the folder holding it", () => {
    const { byTier } = classify(["src/a.test.ts", "src/x/b.test.ts", "test/c.test.ts"], tiers);
    assert.deepEqual(byTier, {
      unit: ["src/a.test.ts", "src/x/b.test.ts"],
      integration: ["test/c.test.ts"],
      soak: [],
    });
  });

  test("a file named explicitly leaves its folder's tier for the named one", () => {
    const files = ["src/db/migrations.test.ts", "src/db/x.test.ts", "test/reliability/soak.test.ts", "test/reliability/y.test.ts"];
    const { byTier } = classify(files, tiers);
    assert.deepEqual(byTier, {
      unit: ["src/db/x.test.ts"],
      integration: ["src/db/migrations.test.ts", "test/reliability/y.test.ts"],
      soak: ["test/reliability/soak.test.ts"],
    });
  });

  test("the longest folder wins, and '.' is the whole package", () => {
    const { byTier } = classify(["a.test.ts", "spawn/b.test.ts"], { unit: ["."], integration: ["./spawn/"] });
    assert.deepEqual(byTier, { unit: ["a.test.ts"], integration: ["spawn/b.test.ts"] });
  });

  test("a file no tier claims, or two tiers claim alike, is reported, never run silently", () => {
    const r = classify(["lib/a.test.ts", "src/b.test.ts"], {
      unit: ["src"],
      integration: ["src/b.test.ts", "src/b.test.ts"],
      soak: ["src/b.test.ts"],
    });
    assert.deepEqual(r.unclaimed, ["lib/a.test.ts"]);
    assert.deepEqual(r.conflicts, [{ file: "src/b.test.ts", tiers: ["integration", "soak"] }]);
  });

  test("without testTiers: src/ is unit, test/ is integration", () => {
    assert.deepEqual(classify(["src/a.test.ts", "test/b.test.ts"]).byTier, { unit: ["src/a.test.ts"], integration: ["test/b.test.ts"] });
  });
});

test("fragments keep the paths containing any of them; none keeps all", () => {
  const files = ["packages/agentctl/src/a.test.ts", "apps/backend/src/agentctl/b.test.ts", "apps/web/lib/c.test.ts"];
  assert.deepEqual(filterByFragments(files, []), files);
  assert.deepEqual(filterByFragments(files, ["agentctl"]), files.slice(0, 2));
  assert.deepEqual(filterByFragments(files, ["web/", "/a.test"]), [files[0], files[2]]);
});

test("the closing summaries of several packages add up; test diagnostics and indented lines do not count", () => {
  const totals: Record<string, number> = {};
  const lines = [
    "@kandev/protocol:test:unit: \u2139 tests 12",
    "@kandev/protocol:test:unit: \u2139 pass 12",
    "@kandev/protocol:test:unit:   \u2139 pass 99",
    "@kandev/backend:test:unit: \u2139 fuzz through the board: {}",
    "\u2139 tests 3",
    "\u2139 pass 2",
    "\u2139 fail 1",
  ];
  const counted = lines.filter((l) => addSummaryLine(totals, l)).length;
  assert.equal(counted, 5);
  assert.deepEqual(totals, { tests: 15, pass: 14, fail: 1 });
  assert.equal(
    formatSummary(totals, 1234.4),
    ["tests 15", "suites 0", "pass 14", "fail 1", "cancelled 0", "skipped 0", "todo 0", "duration_ms 1234"].map((l) => `\u2139 ${l}`).join("\n"),
  );
});

describe("the repository's test files", () => {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const rootPkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { workspaces: string[]; scripts: Record<string, string> };
  const turbo = JSON.parse(readFileSync(join(root, "turbo.json"), "utf8")) as { tasks: Record<string, unknown> };
  // Workspace globs are "dir/*" or a plain folder.
  const workspaces = rootPkg.workspaces.flatMap((w) =>
    w.endsWith("/*")
      ? readdirSync(join(root, w.slice(0, -2)))
          .map((n) => join(root, w.slice(0, -2), n))
          .filter((d) => statSync(d).isDirectory() && readdirSync(d).includes("package.json"))
      : [join(root, w)],
  );

  test("every test file of every workspace runs in exactly one tier, and each tier is a turbo task and a package script", () => {
    let count = 0;
    for (const dir of workspaces) {
      const { name, tiers } = readPackage(dir);
      const files = listTestFiles(dir);
      const { byTier, unclaimed, conflicts } = classify(files, tiers);
      assert.deepEqual({ name, unclaimed, conflicts }, { name, unclaimed: [], conflicts: [] });
      const scripts = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts?: Record<string, string> }).scripts ?? {};
      for (const [tier, list] of Object.entries(byTier)) {
        if (list.length === 0) continue;
        assert.ok(`test:${tier}` in turbo.tasks, `turbo.json has no test:${tier} task (${name})`);
        const [node, runner, arg, ...more] = (scripts[`test:${tier}`] ?? "").split(" ");
        assert.deepEqual(
          { node, runner: runner && resolve(dir, runner), arg, more },
          { node: "node", runner: join(root, "tooling/node-test/run.mjs"), arg: tier, more: [] },
          `${name}'s test:${tier} script runs tooling/node-test/run.mjs ${tier}`,
        );
        count += list.length;
      }
    }
    assert.equal(
      count,
      workspaces.reduce((n, d) => n + listTestFiles(d).length, 0),
    );
  });

  test("no node:test file sits outside a workspace, where no tier would find it (e2e/ is Playwright's)", () => {
    const inWorkspace = (f: string) => workspaces.some((d) => f.startsWith(`${d}${sep}`));
    const stray: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.name.startsWith(".") || SKIP_DIRS.has(e.name)) continue;
        const full = join(dir, e.name);
        if (e.isDirectory()) {
          if (relative(root, full) !== "e2e") walk(full);
        } else if (e.name.endsWith(".test.ts") && !inWorkspace(full)) stray.push(relative(root, full));
      }
    };
    walk(root);
    assert.deepEqual(stray, []);
  });
});
