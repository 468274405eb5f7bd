import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { branchBaseName, folderNameFor, shortId, slugify, uniqueName } from "./branch-name.js";

describe("branch naming", () => {
  it("turns a title into a lowercase dash-separated slug", () => {
    assert.equal(slugify("Fix the login bug!"), "fix-the-login-bug");
    assert.equal(slugify("  --Add   README--  "), "add-readme");
  });

  it("keeps accented letters as their base letter and drops other scripts", () => {
    assert.equal(slugify("Über café"), "uber-cafe");
    assert.equal(slugify("修复 bug"), "bug");
  });

  it("falls back to 'task' when nothing usable is left", () => {
    assert.equal(slugify("🚀🚀"), "task");
    assert.equal(slugify(""), "task");
  });

  it("cuts long titles without leaving a trailing dash", () => {
    const slug = slugify(`${"a".repeat(39)} bcd`);
    assert.ok(slug.length <= 40);
    assert.ok(!slug.endsWith("-"));
  });

  it("names the branch kandev/<slug>-<short id>", () => {
    assert.equal(branchBaseName("Add a README", "3F2A9C1B-0000-4000-8000-000000000000"), "kandev/add-a-readme-3f2a9c1b");
    assert.equal(shortId("--"), "x");
  });

  it("appends -2, -3 ... until the name is free", () => {
    const taken = new Set(["kandev/x-1", "kandev/x-1-2"]);
    assert.equal(
      uniqueName("kandev/x-1", (n) => taken.has(n)),
      "kandev/x-1-3",
    );
    assert.equal(
      uniqueName("kandev/y", () => false),
      "kandev/y",
    );
    assert.equal(
      uniqueName("kandev/z", () => true, 5),
      undefined,
    );
  });

  it("uses the branch without its prefix as the folder name", () => {
    assert.equal(folderNameFor("kandev/add-readme-1234abcd-2"), "add-readme-1234abcd-2");
    assert.equal(folderNameFor("other/name"), "other-name");
  });
});
