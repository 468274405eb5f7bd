import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  cpuSharePercent,
  ioStallSeconds,
  parseCpuStat,
  parsePressureTotalUs,
  parseWriteBytes,
  readAutogroupsEnabled,
  readIoPressureUs,
  writeBytes,
} from "./procfs.js";

// The first lines of /proc/stat as this machine kind prints them (a Firecracker guest, 2 CPUs).
const STAT = `cpu  3198362 1085117 671419 1615063 10102 0 20810 58647 0 0
cpu0 1599181 542558 335709 807531 5051 0 10405 29323 0 0
cpu1 1599181 542559 335710 807532 5051 0 10405 29324 0 0
intr 1 2 3
`;

describe("parseCpuStat", () => {
  test("sums the eight time fields of the cpu line (guest time is already in user and nice) and picks steal and iowait", () => {
    assert.deepEqual(parseCpuStat(STAT), { total: 3198362 + 1085117 + 671419 + 1615063 + 10102 + 0 + 20810 + 58647, steal: 58647, iowait: 10102 });
  });
  test("an old kernel's line without steal, or no cpu line at all, is unknown", () => {
    assert.equal(parseCpuStat("cpu  1 2 3 4\n"), null);
    assert.equal(parseCpuStat("intr 1 2 3\n"), null);
  });
});

describe("cpuSharePercent", () => {
  const before = { total: 1000, steal: 10, iowait: 100 };
  test("the share of the CPU time between two readings that was stolen, or idle waiting on the disk", () => {
    assert.equal(cpuSharePercent(before, { total: 3000, steal: 260, iowait: 140 }, "steal"), 12.5);
    assert.equal(cpuSharePercent(before, { total: 3000, steal: 260, iowait: 140 }, "iowait"), 2);
    assert.equal(cpuSharePercent(before, { total: 3000, steal: 10, iowait: 100 }, "steal"), 0);
  });
  test("unknown when a reading is missing or no time passed", () => {
    assert.equal(cpuSharePercent(null, { total: 3000, steal: 260, iowait: 140 }, "steal"), null);
    assert.equal(cpuSharePercent(before, null, "iowait"), null);
    assert.equal(cpuSharePercent(before, before, "steal"), null);
  });
});

// /proc/pressure/io as this machine kind prints it (Linux 6.18).
const IO_PRESSURE = `some avg10=3.22 avg60=7.73 avg300=6.14 total=402169673
full avg10=3.13 avg60=7.50 avg300=5.75 total=259919547
`;

describe("the disk's pressure", () => {
  test("parsePressureTotalUs takes the some line's total, not the full line's", () => {
    assert.equal(parsePressureTotalUs(IO_PRESSURE), 402169673);
  });
  test("text without a some line is unknown", () => {
    assert.equal(parsePressureTotalUs("full avg10=0.00 avg60=0.00 avg300=0.00 total=5\n"), null);
    assert.equal(parsePressureTotalUs(""), null);
  });
  test("readIoPressureUs reads a pressure file; a kernel without one is unknown", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-pressure-"));
    try {
      const file = path.join(dir, "io");
      fs.writeFileSync(file, IO_PRESSURE);
      assert.equal(readIoPressureUs(file), 402169673);
      assert.equal(readIoPressureUs(path.join(dir, "missing")), null);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  test("ioStallSeconds is the difference in seconds; unknown with a missing reading or a counter that went back", () => {
    assert.equal(ioStallSeconds(400_000_000, 412_500_000), 12.5);
    assert.equal(ioStallSeconds(null, 412_500_000), null);
    assert.equal(ioStallSeconds(400_000_000, null), null);
    assert.equal(ioStallSeconds(400_000_000, 1), null);
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

describe("parseWriteBytes", () => {
  test("reads write_bytes, not wchar (which counts pipes and sockets too)", () => {
    const io = "rchar: 100\nwchar: 9999\nsyscr: 1\nsyscw: 2\nread_bytes: 0\nwrite_bytes: 40960\ncancelled_write_bytes: 4096\n";
    assert.equal(parseWriteBytes(io), 40960);
    assert.equal(parseWriteBytes("rchar: 1\n"), null);
  });
  test("of a process that is gone: 0", () => {
    assert.equal(writeBytes(2 ** 30), 0);
  });
});
