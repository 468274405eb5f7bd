// The board's WAL checkpoints run in a worker (db/checkpointer.ts): what the board writes reaches
// the database file within the interval, not only when the WAL passes 1,000 pages inside a commit.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { api, eventually, startTestServer, tempDir } from "./helpers.js";

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** About 400 KB of writes, far below the 1,000 pages (4 MB) of SQLite's automatic checkpoint. */
async function writeProfiles(base: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const r = await api(base, "POST", "/api/v1/agent-profiles", { id: `p${i}`, name: `Profile ${i}`, command: ["true"], env: { NOTES: "n".repeat(20_000) } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }
}

/** A board on its own temp database, with `checkpointIntervalMs`, 20 profiles written; closed after `check`. */
async function boardAfterWrites(checkpointIntervalMs: number, check: (dbPath: string, sizeBefore: number) => Promise<void>): Promise<string> {
  const dir = tempDir();
  dirs.push(dir);
  const server = await startTestServer({ dir, checkpointIntervalMs });
  try {
    const before = fs.statSync(server.dbPath).size;
    await writeProfiles(server.url);
    await check(server.dbPath, before);
  } finally {
    await server.close();
  }
  return server.dbPath;
}

describe("WAL checkpoints of the running board", () => {
  test("with the worker (the default), the board's writes reach the database file within the interval", async () => {
    const dbPath = await boardAfterWrites(50, async (file, before) => {
      await eventually(() => (fs.statSync(file).size > before + 20 * 20_000 ? true : undefined), "the profiles to be in the database file", 5_000);
    });
    assert.equal(fs.existsSync(`${dbPath}-wal`), false, "closed: no WAL left behind");
  });

  test("with checkpointIntervalMs 0 they wait in the WAL for SQLite's own checkpoint (the control)", async () => {
    await boardAfterWrites(0, async (file, before) => {
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(fs.statSync(file).size, before, "nothing checkpointed yet");
      assert.ok(fs.statSync(`${file}-wal`).size > 20 * 20_000);
    });
  });
});
