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

describe("WAL checkpoints of the running board", () => {
  test("with the worker (the default), the board's writes reach the database file within the interval", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const server = await startTestServer({ dir, checkpointIntervalMs: 50 });
    try {
      const before = fs.statSync(server.dbPath).size;
      await writeProfiles(server.url);
      await eventually(() => (fs.statSync(server.dbPath).size > before + 20 * 20_000 ? true : undefined), "the profiles to be in the database file", 5_000);
    } finally {
      await server.close();
    }
    assert.equal(fs.existsSync(`${server.dbPath}-wal`), false, "closed: no WAL left behind");
  });

  test("with checkpointIntervalMs 0 they wait in the WAL for SQLite's own checkpoint (the control)", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const server = await startTestServer({ dir, checkpointIntervalMs: 0 });
    try {
      const before = fs.statSync(server.dbPath).size;
      await writeProfiles(server.url);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(fs.statSync(server.dbPath).size, before, "nothing checkpointed yet");
      assert.ok(fs.statSync(`${server.dbPath}-wal`).size > 20 * 20_000);
    } finally {
      await server.close();
    }
  });
});
