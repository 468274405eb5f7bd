// AC-20b: operator answers reach agentctl only as `agent.elicitations.respond` on the agent stream.
// The backend has no HTTP client towards agentctl and no `/api/v1/acp` route exists anywhere; this
// guard fails the build if either appears. (The integration tests assert the action on the wire.)
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const srcDir = fileURLToPath(new URL("..", import.meta.url));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [full] : [];
  });
}

test("no /api/v1/acp path and no HTTP client towards agentctl in the backend (AC-20b)", () => {
  const files = sources(srcDir);
  assert.ok(files.length > 20);
  for (const f of files) {
    const text = fs.readFileSync(f, "utf8");
    assert.ok(!text.includes("/api/v1/acp"), `${path.relative(srcDir, f)} mentions /api/v1/acp`);
  }
  for (const f of sources(path.join(srcDir, "executor")).concat(
    sources(path.join(srcDir, "clarifications")),
    sources(path.join(srcDir, "lifecycle")),
  )) {
    const text = fs.readFileSync(f, "utf8");
    assert.doesNotMatch(text, /\bfetch\(|http\.request\(|http\.get\(|from "undici"/, `${path.relative(srcDir, f)} makes HTTP requests`);
  }
});
