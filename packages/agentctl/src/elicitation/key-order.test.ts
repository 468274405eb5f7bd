import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { compareBytewise, compareDigitRuns, compareKeys, sortKeys, splitKey } from "./key-order.js";

describe("key order (D1)", () => {
  test("splits each key at its maximal trailing run of digits (spec examples) (D1)", () => {
    assert.deepEqual(splitKey("question_10"), { prefix: "question_", digits: "10" });
    assert.deepEqual(splitKey("apiKey"), { prefix: "apiKey", digits: null });
    assert.deepEqual(splitKey("step1_field2"), { prefix: "step1_field", digits: "2" });
    assert.deepEqual(splitKey("100_items"), { prefix: "100_items", digits: null });
    assert.deepEqual(splitKey("42"), { prefix: "", digits: "42" });
    assert.deepEqual(splitKey(""), { prefix: "", digits: null });
    // Only ASCII digits count: a full-width digit is part of the prefix.
    assert.deepEqual(splitKey("q\uFF11"), { prefix: "q\uFF11", digits: null });
  });

  test("orders question_2 before question_10 (numeric, not bytewise) (D1)", () => {
    assert.ok(compareKeys("question_2", "question_10") < 0);
    assert.ok(compareKeys("question_10", "question_2") > 0);
    assert.deepEqual(sortKeys(["question_10", "question_2", "question_1"]), ["question_1", "question_2", "question_10"]);
  });

  test("compares prefixes bytewise first, then numbered before unnumbered (D1)", () => {
    // "" < "100_items" < "apiKey" < "step1_field" (bytewise: digits before letters).
    assert.deepEqual(sortKeys(["apiKey", "step1_field2", "100_items", "42"]), ["42", "100_items", "apiKey", "step1_field2"]);
    // Same prefix "question_": the numbered key sorts before the bare one.
    assert.deepEqual(sortKeys(["question_", "question_3"]), ["question_3", "question_"]);
    // Upper case sorts before lower case bytewise.
    assert.deepEqual(sortKeys(["b", "B", "a"]), ["B", "a", "b"]);
  });

  test("tiebreak on the full key is reachable: q01 and q1 share prefix and number (D1)", () => {
    assert.ok(compareKeys("q01", "q1") < 0);
    assert.ok(compareKeys("q1", "q01") > 0);
    assert.equal(compareKeys("q1", "q1"), 0);
  });

  test("numbers of any length compare numerically without precision loss (D1)", () => {
    assert.ok(compareKeys("k99999999999999999998", "k99999999999999999999") < 0);
    assert.ok(compareKeys("k9", "k10000000000000000000000") < 0);
    assert.equal(compareDigitRuns("007", "7"), 0);
    assert.equal(compareDigitRuns("0", "000"), 0);
  });

  test("bytewise means UTF-8 byte (code point) order, not UTF-16 code units (D1)", () => {
    // U+FF5E (3 UTF-8 bytes, EF BD 9E) sorts before U+1F600 (4 bytes, F0 ...), although its UTF-16
    // unit 0xFF5E is above the surrogate 0xD83D that `<` would compare.
    assert.ok("\u{1F600}" < "\uFF5E");
    assert.ok(compareBytewise("\uFF5E", "\u{1F600}") < 0);
    assert.equal(Buffer.compare(Buffer.from("\uFF5E"), Buffer.from("\u{1F600}")), -1);
    assert.ok(compareBytewise("ab", "abc") < 0);
    assert.equal(compareBytewise("", ""), 0);
    // Lone surrogates still order (totality), distinct strings never compare equal.
    assert.notEqual(compareBytewise("\uD800", "\uDC00"), 0);
  });
});
