import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { clarificationAttribution, metadataUser, permissionAttribution } from "./attribution";

describe("attribution", () => {
  test("a message's user is read from its metadata; anything else is no user", () => {
    assert.equal(metadataUser({ user: "bob" }), "bob");
    assert.equal(metadataUser({ user: "" }), null);
    assert.equal(metadataUser({ user: 3 }), null);
    assert.equal(metadataUser({}), null);
  });

  test("a permission decision says approved or denied by whom, from the chosen option's kind", () => {
    assert.deepEqual(permissionAttribution("allow_once", "bob"), { key: "auth.approvedBy", values: { user: "bob" } });
    assert.deepEqual(permissionAttribution("allow_always", "bob"), { key: "auth.approvedBy", values: { user: "bob" } });
    assert.deepEqual(permissionAttribution("reject_once", "ann"), { key: "auth.deniedBy", values: { user: "ann" } });
    assert.equal(permissionAttribution("allow_once", null), null);
    assert.equal(permissionAttribution(undefined, "bob"), null);
  });

  test("a clarification answered or skipped by a person names them; other endings do not", () => {
    assert.deepEqual(clarificationAttribution("answered", { user: "bob" }), { key: "auth.answeredBy", values: { user: "bob" } });
    assert.deepEqual(clarificationAttribution("declined", { user: "bob" }), { key: "auth.skippedBy", values: { user: "bob" } });
    assert.equal(clarificationAttribution("timed_out", { user: "bob" }), null);
    assert.equal(clarificationAttribution("answered", { by: "deadline" } as { user?: string }), null);
    assert.equal(clarificationAttribution("answered", null), null);
  });
});
