import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { compareWithBaseline, formatReport, MAX_DIFF_LINES, type CaptureReport } from "./report.js";

const base: CaptureReport = {
  installed: "@agentclientprotocol/claude-agent-acp@0.102.0",
  folder: "bridge-0.102.0",
  source: "the npm registry",
  inputsFrom: "bridge-0.101.0",
  comparedWith: { folder: "bridge-0.101.0", sameVersion: false },
  target: "packages/agentctl/test/fixtures/bridge-0.102.0",
  files: [],
  dryRun: false,
  written: [],
};

describe("capture report", () => {
  test("compareWithBaseline: new, unchanged by bytes, changed with the paths that differ", () => {
    assert.deepEqual(compareWithBaseline("a.json", undefined, "{}\n"), { file: "a.json", status: "new" });
    assert.deepEqual(compareWithBaseline("a.json", '{"x":1}\n', '{"x":1}\n'), { file: "a.json", status: "unchanged" });
    assert.deepEqual(compareWithBaseline("a.json", '{"x":1,"y":2}\n', '{"x":3}\n'), {
      file: "a.json",
      status: "changed",
      diff: [
        { path: "x", kind: "changed", before: 1, after: 3 },
        { path: "y", kind: "removed", before: 2 },
      ],
    });
  });

  test("same values in another key order or layout is still a change (the files are compared byte for byte)", () => {
    const r = compareWithBaseline("a.json", '{"x":1,"y":2}\n', '{\n  "y": 2,\n  "x": 1\n}\n');
    assert.deepEqual(r, { file: "a.json", status: "changed", diff: [], note: "same values, different key order or layout" });
    const broken = compareWithBaseline("a.json", "{oops", "{}\n");
    assert.deepEqual(broken, { file: "a.json", status: "changed", diff: [], note: "the checked-in file is not valid JSON" });
  });

  test("prints the header, one row per file with its diff lines, the summary and what was written", () => {
    const text = formatReport({
      ...base,
      files: [
        { file: "ask-4-mixed.json", status: "changed", diff: [{ path: "createRequest.message", kind: "changed", before: "a", after: "b" }] },
        { file: "mcp-passthrough.json", status: "unchanged" },
        { file: "extra.json", status: "new" },
        { file: "wire-ask-user-question.json", status: "wire-copied", from: "bridge-0.101.0" },
        { file: "wire-mcp-passthrough.json", status: "wire-kept" },
      ],
      written: ["ask-4-mixed.json", "mcp-passthrough.json", "extra.json", "wire-ask-user-question.json"],
    });
    assert.equal(
      text,
      [
        "fixtures:capture @agentclientprotocol/claude-agent-acp@0.102.0 (installed from the npm registry)",
        "  inputs from   bridge-0.101.0",
        "  compared with bridge-0.101.0 (the newest checked-in version; this version is not checked in)",
        "  target        packages/agentctl/test/fixtures/bridge-0.102.0",
        "",
        "  changed    ask-4-mixed.json",
        '      ~ createRequest.message: "a" -> "b"',
        "  unchanged  mcp-passthrough.json",
        "  new        extra.json",
        "  copied     wire-ask-user-question.json from the checked-in bridge-0.101.0 (wire captures need a live bridge + CLI and are never regenerated)",
        "  kept       wire-mcp-passthrough.json (wire capture from a live bridge + CLI; not regenerated)",
        "",
        "3 generated: 1 unchanged, 1 changed, 1 new, 0 failed.",
        "Note: 1 wire capture(s) were copied forward from another version, not captured from @agentclientprotocol/claude-agent-acp@0.102.0: re-capture them from a live bridge (docs/BRIDGE-UPGRADE.md).",
        "Wrote 4 file(s) to packages/agentctl/test/fixtures/bridge-0.102.0.",
      ].join("\n"),
    );
  });

  test("a long diff is cut after MAX_DIFF_LINES lines", () => {
    const diff = Array.from({ length: MAX_DIFF_LINES + 5 }, (_, i) => ({ path: `k${i}`, kind: "added" as const, after: i }));
    const text = formatReport({ ...base, files: [{ file: "a.json", status: "changed", diff }] });
    assert.match(text, /\+ k19: 19\n {6}\.\.\. and 5 more\n/);
    assert.doesNotMatch(text, /k20/);
  });

  test("failures, dry runs, up-to-date targets and same-version wire copies each say so", () => {
    const failed = formatReport({
      ...base,
      files: [{ file: "refusal-fallback.json", status: "failed", message: "refusalFallbackToCreateRequest threw: boom" }],
    });
    assert.match(failed, / {2}FAILED {5}refusal-fallback.json: refusalFallbackToCreateRequest threw: boom/);
    assert.match(failed, /0 unchanged, 0 changed, 0 new, 1 failed\.\nCapture incomplete: nothing written\.$/);
    assert.match(formatReport({ ...base, dryRun: true }), /Dry run: nothing written\.$/);
    const same = formatReport({
      ...base,
      comparedWith: { folder: "bridge-0.102.0", sameVersion: true },
      files: [{ file: "wire-ask-user-question.json", status: "wire-copied", from: "bridge-0.102.0" }],
    });
    assert.match(same, /compared with bridge-0\.102\.0 \(checked in, same version\)/);
    assert.doesNotMatch(same, /Note:/);
    assert.match(same, /Nothing to write: packages\/agentctl\/test\/fixtures\/bridge-0\.102\.0 is up to date\.$/);
  });
});
