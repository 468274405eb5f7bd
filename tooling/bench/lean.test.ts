// The lean board (`npm run bench -- --lean`, floor/lean-*.mjs), and how a dead relay ends a run:
// real relay processes over real pipes and sockets, and the lean board's SQLite file read while it
// runs.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { FloorBench } from "./floor.js";
import { childrenOf } from "./procfs.js";

function leanDatabase(dir: string): string {
  const sub = fs.readdirSync(dir).find((d) => d.startsWith("lean-board-"));
  assert.ok(sub !== undefined, `no lean-board-* directory in ${fs.readdirSync(dir).join(", ")}`);
  return path.join(dir, sub, "lean.db");
}

describe("the lean board", () => {
  test("answers every question, records each one durably, and settles it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-lean-"));
    const lean = await FloorBench.start(3, dir, "lean");
    try {
      const rec = await lean.run(3, 4);
      assert.deepEqual(rec.errors, []);
      assert.equal(rec.roundTrips, 12);
      assert.equal(rec.asks.length, 12);
      assert.equal(rec.answers.length, 12);
      // The settles are written after the agent has its answer; give the last ones a moment.
      const db = new Database(leanDatabase(dir), { readonly: true });
      try {
        let rows: Array<{ status: string; n: number }> = [];
        for (let i = 0; i < 50; i++) {
          rows = db.prepare("SELECT status, count(*) AS n FROM clarifications GROUP BY status").all() as typeof rows;
          const open = db.prepare("SELECT count(*) AS n FROM messages WHERE requests_input = 1").get() as { n: number };
          if (open.n === 0 && rows.length === 1) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        assert.deepEqual(rows, [{ status: "answered", n: 12 }]);
        assert.equal((db.prepare("SELECT count(*) AS n FROM messages WHERE requests_input = 1").get() as { n: number }).n, 0);
        const answer = db.prepare("SELECT answer FROM clarifications LIMIT 1").get() as { answer: string };
        assert.deepEqual(JSON.parse(answer.answer), { answers: [{ question_id: "choice", selected_options: ["a"] }] });
      } finally {
        db.close();
      }
    } finally {
      await lean.close();
    }
    // Nothing went to its log.
    const log = path.join(dir, "lean.stderr.log");
    assert.equal(fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "", "");
    // Stopped, it removes its database; the bench's directory keeps only the logs.
    assert.deepEqual(
      fs.readdirSync(dir).filter((d) => d.startsWith("lean-board-")),
      [],
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("a relay that dies", () => {
  for (const kind of ["floor", "lean"] as const) {
    test(`ends the ${kind}'s run with a reason instead of leaving it waiting`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-lean-"));
      const bench = await FloorBench.start(2, dir, kind);
      try {
        const script = kind === "lean" ? "lean-agentctl.mjs" : "relay-agentctl.mjs";
        const victim = childrenOf(process.pid).find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(script));
        assert.ok(victim !== undefined, `no ${script} child`);
        process.kill(victim, "SIGKILL");
        // Whichever the bench notices first, its socket closing or a request refused, it names the
        // relay backend and where its log is.
        const reason = /relay backend (closed its WebSocket \(|did not answer \(.*; )it stopped\?\); see .*\.stderr\.log/;
        await assert.rejects(bench.run(2, 3), reason);
        // Every later run fails too, with a reason.
        await assert.rejects(bench.run(1, 1), reason);
        assert.match(fs.readFileSync(path.join(dir, `${kind}.stderr.log`), "utf8"), /the relay agentctl on port \d+ closed its WebSocket; stopping/);
      } finally {
        await bench.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
