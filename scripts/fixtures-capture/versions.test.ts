import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { CaptureError } from "./errors.js";
import { bridgeVersions, compareVersions, folderOf, isExactVersion } from "./versions.js";

describe("versions", () => {
  test("isExactVersion accepts x.y.z and prereleases, nothing looser", () => {
    for (const v of ["0.65.0", "0.101.0", "10.0.12", "1.0.0-rc.1", "1.0.0-beta-2"]) assert.ok(isExactVersion(v), v);
    for (const v of ["latest", "^0.101.0", "0.101", "0.101.x", "v0.101.0", "0.101.0 ", "../x", "0.1.0+build"]) assert.ok(!isExactVersion(v), v);
  });

  test("compareVersions orders numerically, prereleases before their release", () => {
    const sorted = ["0.101.0", "0.65.0", "1.0.0", "0.78.0", "1.0.0-rc.2", "1.0.0-rc.10", "1.0.0-alpha", "0.9.9"].sort(compareVersions);
    assert.deepEqual(sorted, ["0.9.9", "0.65.0", "0.78.0", "0.101.0", "1.0.0-alpha", "1.0.0-rc.2", "1.0.0-rc.10", "1.0.0"]);
    assert.equal(compareVersions("0.78.0", "0.78.0"), 0);
    assert.equal(compareVersions("1.0.0-1", "1.0.0-a"), -1, "numeric identifiers sort before alphanumeric ones");
    assert.throws(() => compareVersions("latest", "0.1.0"), /not an exact version: latest/);
  });

  test("bridgeVersions lists bridge-* folders oldest first and ignores other names", () => {
    assert.deepEqual(bridgeVersions(["README.md", "bridge-0.101.0", "capabilities", "bridge-0.65.0"]), ["0.65.0", "0.101.0"]);
    assert.deepEqual(bridgeVersions(["capabilities"]), []);
    assert.equal(folderOf("0.101.0"), "bridge-0.101.0");
  });

  test("a bridge-* folder that is not named after an exact version is an error, not skipped", () => {
    assert.throws(
      () => bridgeVersions(["bridge-0.65.0", "bridge-latest"]),
      (err: unknown) => {
        assert.ok(err instanceof CaptureError);
        assert.match(err.message, /"bridge-latest" is not named bridge-<exact version>/);
        return true;
      },
    );
  });
});
