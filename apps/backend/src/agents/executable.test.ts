import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkFile, resolveExecutable, type FileCheck, type FileVerdict } from "./executable.js";

/** A fake file system: path -> verdict; everything else is missing. */
const fakeFs =
  (files: Record<string, FileVerdict>): FileCheck =>
  (file) =>
    files[file] ?? "missing";

describe("resolveExecutable", () => {
  test("a bare name is looked up on PATH in order; the first executable match wins", () => {
    const check = fakeFs({ "/b/agent": "ok", "/c/agent": "ok" });
    assert.deepEqual(resolveExecutable("agent", { pathEnv: "/a:/b:/c", cwd: "/w", check }), { ok: true, path: "/b/agent" });
  });

  test("not on PATH -> missing, with every place searched", () => {
    const r = resolveExecutable("agent", { pathEnv: "/a:/b", cwd: "/w", check: fakeFs({}) });
    assert.deepEqual(r, { ok: false, reason: "missing", file: "agent", searched: ["/a/agent", "/b/agent"] });
  });

  test("found only without execute permission -> not_executable; an executable later on PATH still wins", () => {
    assert.equal(resolveExecutable("agent", { pathEnv: "/a:/b", cwd: "/w", check: fakeFs({ "/a/agent": "not_executable" }) }).ok, false);
    const r = resolveExecutable("agent", { pathEnv: "/a:/b", cwd: "/w", check: fakeFs({ "/a/agent": "not_executable" }) });
    assert.equal(!r.ok && r.reason, "not_executable");
    const later = resolveExecutable("agent", { pathEnv: "/a:/b", cwd: "/w", check: fakeFs({ "/a/agent": "not_executable", "/b/agent": "ok" }) });
    assert.deepEqual(later, { ok: true, path: "/b/agent" });
  });

  test("a path with a slash is one candidate, relative to the agent's cwd; PATH is not searched", () => {
    const check = fakeFs({ "/w/node_modules/.bin/agent": "ok", "/a/agent": "ok" });
    assert.deepEqual(resolveExecutable("node_modules/.bin/agent", { pathEnv: "/a", cwd: "/w", check }), {
      ok: true,
      path: "/w/node_modules/.bin/agent",
    });
    const r = resolveExecutable("/opt/agent", { pathEnv: "/a", cwd: "/w", check });
    assert.deepEqual(r, { ok: false, reason: "missing", file: "/opt/agent", searched: ["/opt/agent"] });
  });

  test("no PATH at all and an empty name are missing, not a crash", () => {
    assert.equal(resolveExecutable("agent", { pathEnv: undefined, cwd: "/w", check: fakeFs({}) }).ok, false);
    assert.equal(resolveExecutable("", { pathEnv: "/a", cwd: "/w", check: fakeFs({}) }).ok, false);
  });
});

describe("checkFile (the real disk)", () => {
  test("executable file ok; plain file not_executable; directory and nothing missing", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-"));
    try {
      const exe = path.join(dir, "exe");
      const plain = path.join(dir, "plain");
      fs.writeFileSync(exe, "#!/bin/sh\n", { mode: 0o755 });
      fs.writeFileSync(plain, "x", { mode: 0o644 });
      assert.equal(checkFile(exe), "ok");
      // root can read anything but still needs an x bit to execute, so this holds for root too.
      assert.equal(checkFile(plain), "not_executable");
      assert.equal(checkFile(dir), "missing");
      assert.equal(checkFile(path.join(dir, "nope")), "missing");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
