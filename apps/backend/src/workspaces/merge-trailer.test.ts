import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { withMergedBy } from "./merge.js";

describe("Merged-by trailer", () => {
  test("added as its own paragraph, or joined to a trailer block the message ends with", () => {
    assert.equal(
      withMergedBy("Merge branch 'x' into main\n\nKandev task: T", "bob"),
      "Merge branch 'x' into main\n\nKandev task: T\n\nMerged-by: bob\n",
    );
    assert.equal(withMergedBy("Subject", "bob"), "Subject\n\nMerged-by: bob\n");
    assert.equal(withMergedBy("Subject\n\nSigned-off-by: A <a@x>\n", "bob"), "Subject\n\nSigned-off-by: A <a@x>\nMerged-by: bob\n");
    assert.equal(withMergedBy("Subject", undefined), "Subject");
  });
});
