import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { parseCaptureArgs } from "./args.js";
import { UsageError } from "./errors.js";

const CWD = "/repo";
const FIXTURES = "/repo/packages/agentctl/test/fixtures";
const parse = (...argv: string[]) => parseCaptureArgs(argv, CWD, FIXTURES);

function usageError(argv: string[], message: RegExp): void {
  assert.throws(
    () => parse(...argv),
    (err: unknown) => {
      assert.ok(err instanceof UsageError, String(err));
      assert.match(err.message, message);
      return true;
    },
  );
}

describe("fixtures:capture arguments", () => {
  test("--bridge alone writes into the checked-in fixtures", () => {
    assert.deepEqual(parse("--bridge", "0.101.0"), { bridge: "0.101.0", from: null, out: FIXTURES, fixtures: FIXTURES, dryRun: false });
  });

  test("--out, --fixtures and --from resolve against the cwd; --flag=value works too", () => {
    assert.deepEqual(parse("--bridge=latest", "--out", "out/x", "--fixtures=/abs/fx", "--dry-run"), {
      bridge: "latest",
      from: null,
      out: "/repo/out/x",
      fixtures: "/abs/fx",
      dryRun: true,
    });
    assert.deepEqual(parse("--from", "../bridge.tgz"), { bridge: null, from: "/bridge.tgz", out: FIXTURES, fixtures: FIXTURES, dryRun: false });
  });

  test("--out defaults to --fixtures when only that is given", () => {
    assert.equal(parse("--bridge", "0.65.0", "--fixtures", "fx").out, "/repo/fx");
  });

  test("a range or a dist-tag is a valid --bridge for the registry", () => {
    assert.equal(parse("--bridge", "^0.101.0").bridge, "^0.101.0");
    assert.equal(parse("--bridge", "next").bridge, "next");
  });

  test("bad command lines are usage errors that say what is wrong", () => {
    usageError([], /--bridge <version> is required/);
    usageError(["--dry-run"], /--bridge <version> is required/);
    usageError(["--bridge"], /--bridge needs a value/);
    usageError(["--bridge", "--dry-run"], /--bridge needs a value/);
    usageError(["--bridge="], /--bridge needs a value/);
    usageError(["--bridge", "0.1.0", "--bridge", "0.2.0"], /--bridge given twice/);
    usageError(["--bridge", "0.1.0", "--verbose"], /unknown argument: --verbose/);
    usageError(["0.101.0"], /unknown argument: 0.101.0/);
    usageError(["--bridge", "file:../bridge"], /not a version, range or dist-tag; use --from/);
    usageError(["--bridge", "github:org/repo"], /use --from/);
    usageError(["--from", "x.tgz", "--bridge", "latest"], /with --from, --bridge must be the package's exact version/);
  });
});
