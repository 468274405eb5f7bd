import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { describeReply, expectStatus } from "./http-json.js";

describe("bench HTTP replies in error messages", () => {
  it("an empty body (a reply with no content) is named, not a crash", () => {
    assert.equal(describeReply({ status: 503, body: undefined }), "HTTP 503 (empty body)");
  });

  it("a JSON body is shown, cut at the limit", () => {
    assert.equal(describeReply({ status: 409, body: { code: "ALREADY_ANSWERED" } }), 'HTTP 409 {"code":"ALREADY_ANSWERED"}');
    assert.equal(describeReply({ status: 500, body: "x".repeat(50) }, 10), `HTTP 500 "${"x".repeat(9)}`);
  });

  it("expectStatus returns the body on the expected status and throws with the reply otherwise", () => {
    assert.deepEqual(expectStatus({ status: 200, body: { ok: true } }, 200, "answer"), { ok: true });
    assert.throws(() => expectStatus({ status: 404, body: undefined }, 200, "answer c1"), /^Error: answer c1: HTTP 404 \(empty body\)$/);
  });
});
