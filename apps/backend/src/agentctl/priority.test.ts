import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { describe, test } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import { AutogroupNicer, lowerPriority, parseAutogroup, type AutogroupFiles } from "./priority.js";

/** A child that idles for 30 s; `detached` puts it in a session, so an autogroup, of its own. */
function idleChild(detached: boolean): ChildProcess {
  return spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore", detached });
}

async function kill(child: ChildProcess): Promise<void> {
  child.kill("SIGKILL");
  if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once("exit", r));
}

/** The autogroup of `pid`; null where the kernel has none or does not show it to us. */
function autogroupOf(pid: number | "self") {
  try {
    return parseAutogroup(fs.readFileSync(`/proc/${pid}/autogroup`, "utf8"));
  } catch {
    return null;
  }
}

/** Files whose reads come from `groups` and whose writes fail with `errors` in turn, then succeed. */
function fakeFiles(groups: Record<string, string>, errors: string[] = []) {
  const writes: Array<[string, string]> = [];
  const files: AutogroupFiles = {
    read: (p) => {
      const text = groups[p];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file, open '${p}'`), { code: "ENOENT" });
      return text;
    },
    write: (p, text) => {
      writes.push([p, text]);
      const code = errors.shift();
      if (code !== undefined) throw Object.assign(new Error(`${code}: refused, write '${p}'`), { code });
    },
  };
  return { files, writes };
}

const ownAndChild = { "/proc/self/autogroup": "/autogroup-1 nice 2\n", "/proc/42/autogroup": "/autogroup-9 nice 0\n" };
const refSleep = (ms: number) => delay(ms);

describe("lowerPriority", () => {
  test("a real child ends up `by` levels below this process, capped at 19; 0 leaves it alone", async () => {
    const own = os.getPriority(0);
    const child = idleChild(false);
    try {
      const pid = child.pid!;
      assert.equal(lowerPriority(pid, 0), null);
      assert.equal(os.getPriority(pid), own);
      assert.equal(lowerPriority(pid, 4), null);
      assert.equal(os.getPriority(pid), Math.min(19, own + 4));
      assert.equal(lowerPriority(pid, 40), null);
      assert.equal(os.getPriority(pid), 19);
    } finally {
      await kill(child);
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

describe("parseAutogroup", () => {
  test("reads the group and its nice; anything else is null", () => {
    assert.deepEqual(parseAutogroup("/autogroup-25 nice 0\n"), { id: "/autogroup-25", nice: 0 });
    assert.deepEqual(parseAutogroup("/autogroup-3 nice -5"), { id: "/autogroup-3", nice: -5 });
    assert.deepEqual(parseAutogroup("/autogroup-3 nice 19"), { id: "/autogroup-3", nice: 19 });
    for (const bad of ["", "/autogroup-3 nice 20", "/autogroup-3 nice -21", "autogroup-3 nice 0", "/autogroup-x nice 0", "/autogroup-3 nice 1 2"]) {
      assert.equal(parseAutogroup(bad), null, JSON.stringify(bad));
    }
  });
});

describe("AutogroupNicer", () => {
  test("a real child in a session of its own: its autogroup ends up `by` below ours, ours untouched", async (t) => {
    const own = autogroupOf("self");
    const child = idleChild(true);
    try {
      const nicer = new AutogroupNicer({ sleep: refSleep });
      const pid = child.pid!;
      assert.equal(await nicer.lower(pid, 0), null);
      if (own === null) {
        // No autogroups here (none in the kernel, or not shown to us): nothing to set, nothing reported.
        assert.equal(await nicer.lower(pid, 4), null);
        t.diagnostic("no autogroups shown to this process");
        return;
      }
      assert.deepEqual(autogroupOf(pid), { id: autogroupOf(pid)!.id, nice: 0 });
      assert.notEqual(autogroupOf(pid)!.id, own.id);
      assert.equal(await nicer.lower(pid, 4), null);
      assert.equal(autogroupOf(pid)!.nice, Math.min(19, own.nice + 4));
      assert.equal(await nicer.lower(pid, 40), null);
      assert.equal(autogroupOf(pid)!.nice, 19);
      assert.deepEqual(autogroupOf("self"), own, "our own autogroup keeps its nice");
    } finally {
      await kill(child);
    }
  });

  test("a real child in our own session: our shared autogroup is left alone", async () => {
    const own = autogroupOf("self");
    const child = idleChild(false);
    try {
      assert.equal(await new AutogroupNicer({ sleep: refSleep }).lower(child.pid!, 10), null);
      assert.deepEqual(autogroupOf("self"), own);
      assert.deepEqual(autogroupOf(child.pid!), own);
    } finally {
      await kill(child);
    }
  });

  test("the kernel's EAGAIN (one change per 100 ms) is waited out; the group gets our nice + by", async () => {
    const { files, writes } = fakeFiles(ownAndChild, ["EAGAIN", "EAGAIN"]);
    assert.equal(await new AutogroupNicer({ files, retryMs: 1, sleep: refSleep }).lower(42, 5), null);
    assert.deepEqual(writes, [["/proc/42/autogroup", "7"], ["/proc/42/autogroup", "7"], ["/proc/42/autogroup", "7"]]);
  });

  test("concurrent calls run one at a time, in call order", async () => {
    const groups = { ...ownAndChild, "/proc/43/autogroup": "/autogroup-10 nice 0" };
    const { files, writes } = fakeFiles(groups, ["EAGAIN", "EAGAIN", "EAGAIN"]);
    const nicer = new AutogroupNicer({ files, retryMs: 2, sleep: refSleep });
    const results = await Promise.all([nicer.lower(42, 1), nicer.lower(43, 3)]);
    assert.deepEqual(results, [null, null]);
    assert.deepEqual(writes.map(([p]) => p), ["/proc/42/autogroup", "/proc/42/autogroup", "/proc/42/autogroup", "/proc/42/autogroup", "/proc/43/autogroup"]);
    assert.deepEqual(writes.at(-1), ["/proc/43/autogroup", "5"]);
  });

  test("a kernel that keeps refusing, or a policy, is reported after the last attempt, never thrown", async () => {
    const again = fakeFiles(ownAndChild, ["EAGAIN", "EAGAIN", "EAGAIN", "EAGAIN"]);
    assert.match((await new AutogroupNicer({ files: again.files, retryMs: 1, maxAttempts: 3, sleep: refSleep }).lower(42, 1))!, /EAGAIN/);
    assert.equal(again.writes.length, 3);
    const denied = fakeFiles(ownAndChild, ["EACCES"]);
    assert.match((await new AutogroupNicer({ files: denied.files, sleep: refSleep }).lower(42, 1))!, /EACCES/);
    assert.equal(denied.writes.length, 1, "no retry for a refusal other than EAGAIN");
  });

  test("nothing to do: no autogroups in the kernel, a process already gone, or one gone meanwhile", async () => {
    const noAutogroups = fakeFiles({ "/proc/42/autogroup": "/autogroup-9 nice 0" });
    assert.equal(await new AutogroupNicer({ files: noAutogroups.files }).lower(42, 10), null);
    const gone = fakeFiles({ "/proc/self/autogroup": "/autogroup-1 nice 0" });
    assert.equal(await new AutogroupNicer({ files: gone.files }).lower(42, 10), null);
    const exited = fakeFiles(ownAndChild, ["ENOENT"]);
    assert.equal(await new AutogroupNicer({ files: exited.files }).lower(42, 10), null);
    assert.deepEqual([noAutogroups.writes.length, gone.writes.length, exited.writes.length], [0, 0, 1]);
  });

  test("a call that fails outright is reported to its caller, and the next call still runs", async () => {
    const { files, writes } = fakeFiles(ownAndChild, ["EAGAIN"]);
    let broken = true;
    const sleep = (ms: number) => (broken ? Promise.reject(new Error("timer failed")) : delay(ms));
    const nicer = new AutogroupNicer({ files, retryMs: 1, sleep });
    assert.equal(await nicer.lower(42, 1), "timer failed");
    broken = false;
    assert.equal(await nicer.lower(42, 2), null);
    assert.deepEqual(writes, [["/proc/42/autogroup", "3"], ["/proc/42/autogroup", "4"]]);
  });

  test("their file with contents it cannot read is reported, naming the file and what it said; nothing is written", async () => {
    const odd = fakeFiles({ "/proc/self/autogroup": "/autogroup-1 nice 0", "/proc/42/autogroup": "garbage" });
    assert.equal(await new AutogroupNicer({ files: odd.files }).lower(42, 10), 'unexpected contents of /proc/42/autogroup: "garbage"');
    assert.equal(odd.writes.length, 0);
  });

  test("our own file there but saying no group (empty, as some sandboxes serve it): nothing to do, nothing reported", async () => {
    for (const own of ["", "\n", "something else\n"]) {
      const hidden = fakeFiles({ "/proc/self/autogroup": own, "/proc/42/autogroup": "/autogroup-9 nice 0" });
      assert.equal(await new AutogroupNicer({ files: hidden.files }).lower(42, 10), null, JSON.stringify(own));
      assert.equal(hidden.writes.length, 0);
    }
  });
});
