import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCpuStat, readAutogroupsEnabled, stealPercent } from "./procfs.js";

// The first lines of /proc/stat as this machine kind prints them (a Firecracker guest, 2 CPUs).
const STAT = `cpu  3198362 1085117 671419 1615063 10102 0 20810 58647 0 0
cpu0 1599181 542558 335709 807531 5051 0 10405 29323 0 0
cpu1 1599181 542559 335710 807532 5051 0 10405 29324 0 0
intr 1 2 3
`;

describe("parseCpuStat", () => {
  test("sums the eight time fields of the cpu line (guest time is already in user and nice) and picks steal", () => {
    assert.deepEqual(parseCpuStat(STAT), { total: 3198362 + 1085117 + 671419 + 1615063 + 10102 + 0 + 20810 + 58647, steal: 58647 });
  });
  test("an old kernel's line without steal, or no cpu line at all, is unknown", () => {
    assert.equal(parseCpuStat("cpu  1 2 3 4\n"), null);
    assert.equal(parseCpuStat("intr 1 2 3\n"), null);
  });
});

describe("stealPercent", () => {
  test("the share of the CPU time between two readings that was stolen", () => {
    assert.equal(stealPercent({ total: 1000, steal: 10 }, { total: 3000, steal: 260 }), 12.5);
    assert.equal(stealPercent({ total: 1000, steal: 10 }, { total: 3000, steal: 10 }), 0);
  });
  test("unknown when a reading is missing or no time passed", () => {
    assert.equal(stealPercent(null, { total: 3000, steal: 260 }), null);
    assert.equal(stealPercent({ total: 1000, steal: 10 }, null), null);
    assert.equal(stealPercent({ total: 1000, steal: 10 }, { total: 1000, steal: 10 }), null);
  });
});

describe("readAutogroupsEnabled", () => {
  test("1 is on, 0 is off; no such file or anything else is unknown", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-autogroups-"));
    try {
      const file = path.join(dir, "sched_autogroup_enabled");
      const read = (text: string) => (fs.writeFileSync(file, text), readAutogroupsEnabled(file));
      assert.deepEqual([read("1\n"), read("0\n"), read("yes\n")], [true, false, null]);
      assert.equal(readAutogroupsEnabled(path.join(dir, "missing")), null);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
