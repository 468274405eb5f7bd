import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { afterAuthCheck, afterSocketClose } from "./ws-refusal";

describe("the refused-upgrade rule", () => {
  test("a socket that never opened asks /auth/me before reconnecting", () => {
    assert.equal(afterSocketClose(false, true), "check_auth");
  });

  test("a socket that had opened reconnects at once (a dropped connection, not a refusal)", () => {
    assert.equal(afterSocketClose(true, true), "reconnect");
  });

  test("without a way to ask, it reconnects as before", () => {
    assert.equal(afterSocketClose(false, false), "reconnect");
  });

  test("the board's 4401 close (session or token ended) signs out at once, opened or not", () => {
    assert.equal(afterSocketClose(true, true, 4401), "sign_out");
    assert.equal(afterSocketClose(false, false, 4401), "sign_out");
    assert.equal(afterSocketClose(true, true, 1006), "reconnect");
  });

  test("a 401 from /auth/me stops reconnecting; a user or no answer (board down) keeps trying", () => {
    assert.equal(afterAuthCheck("signed_out"), "sign_out");
    assert.equal(afterAuthCheck("signed_in"), "reconnect");
    assert.equal(afterAuthCheck("unknown"), "reconnect");
  });
});
