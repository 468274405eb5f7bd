import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import os from "node:os";
import { describe, test } from "node:test";
import { lowerPriority } from "./local-executor.js";

describe("lowerPriority", () => {
  test("a real child ends up `by` levels below this process, capped at 19; 0 leaves it alone", async () => {
    const own = os.getPriority(0);
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" });
    try {
      const pid = child.pid!;
      assert.equal(lowerPriority(pid, 0), null);
      assert.equal(os.getPriority(pid), own);
      assert.equal(lowerPriority(pid, 4), null);
      assert.equal(os.getPriority(pid), Math.min(19, own + 4));
      assert.equal(lowerPriority(pid, 40), null);
      assert.equal(os.getPriority(pid), 19);
    } finally {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
    }
  });

  test("a refusal (the process is gone, a policy) is reported, never thrown", () => {
    const refusing = {
      getPriority: () => 0,
      setPriority: () => {
        throw new Error("ESRCH: no such process");
      },
    };
    assert.equal(lowerPriority(123, 10, refusing), "ESRCH: no such process");
  });
});
