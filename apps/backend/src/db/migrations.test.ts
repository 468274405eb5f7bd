import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { resolvePackageDir } from "../paths.js";
import { defaultMigrationsFolder } from "./client.js";

// The committed migrations must match schema.ts: forgetting `npm run db:generate` after a schema
// change fails here instead of at a user's first start.
test("drizzle/ is in sync with schema.ts (drizzle-kit generate finds nothing to do)", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-"));
  try {
    fs.cpSync(defaultMigrationsFolder(), path.join(tmp, "drizzle"), { recursive: true });
    const before = fs.readdirSync(path.join(tmp, "drizzle")).sort();
    const schema = path.relative(tmp, fileURLToPath(new URL("./schema.ts", import.meta.url)));
    const bin = path.join(resolvePackageDir("drizzle-kit"), "bin.cjs");
    const run = spawnSync(process.execPath, [bin, "generate", "--dialect", "sqlite", "--schema", schema, "--out", "drizzle"], {
      cwd: tmp,
      encoding: "utf8",
      timeout: 60_000,
      stdio: ["ignore", "pipe", "pipe"],
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /No schema changes/, run.stdout);
    assert.deepEqual(fs.readdirSync(path.join(tmp, "drizzle")).sort(), before);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
