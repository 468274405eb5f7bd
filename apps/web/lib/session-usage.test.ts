import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { compactTokens, contextUsed, costText, usedPercent } from "./session-usage";

describe("session usage words", () => {
  test("token counts are compact", () => {
    assert.equal(compactTokens(950), "950");
    assert.equal(compactTokens(42_000), "42k");
    assert.equal(compactTokens(1_500), "1.5k");
    assert.equal(compactTokens(1_000_000), "1M");
    assert.equal(compactTokens(1_250_000), "1.3M");
  });
  test("context used reads 'used / size'", () => {
    assert.equal(contextUsed({ used: 42_000, size: 200_000 }), "42k / 200k");
    assert.equal(usedPercent({ used: 42_000, size: 200_000 }), 21);
    assert.equal(usedPercent({ used: 5, size: 0 }), 0);
  });
  test("cost in the operator's language; none without a cost; an unknown currency as sent", () => {
    assert.equal(costText({ used: 1, size: 2, cost: { amount: 0.42, currency: "USD" } }, "en"), "$0.42");
    assert.match(costText({ used: 1, size: 2, cost: { amount: 0.42, currency: "USD" } }, "de") ?? "", /^0,42\s\$$/);
    assert.equal(costText({ used: 1, size: 2 }, "en"), null);
    assert.equal(costText({ used: 1, size: 2, cost: { amount: 3, currency: "not a code" } }, "en"), "3.00 not a code");
  });
});
