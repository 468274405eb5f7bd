import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { LineRateLimiter, LineSplitter, TailBuffer } from "./stderr-lines.js";

describe("TailBuffer", () => {
  test("keeps only the last maxChars", () => {
    const t = new TailBuffer(10);
    for (let i = 0; i < 100; i += 1) t.append(String(i % 10));
    assert.equal(t.text(), "0123456789");
    assert.equal(new TailBuffer(10).text(), "");
  });
});

describe("LineSplitter", () => {
  test("joins partial chunks into lines and keeps the remainder", () => {
    const s = new LineSplitter();
    assert.deepEqual(s.push("ab"), []);
    assert.deepEqual(s.push("c\r\nde\nf"), ["abc", "de"]);
    assert.deepEqual(s.flush(), ["f"]);
    assert.deepEqual(s.flush(), []);
  });
  test("cuts long lines, with or without a newline", () => {
    const s = new LineSplitter(5);
    assert.deepEqual(s.push("1234567\n"), ["12345… [truncated]"]);
    assert.deepEqual(s.push("abcdefgh"), ["abcde… [truncated]"]);
  });
});

describe("LineRateLimiter", () => {
  test("drops over the burst and reports the count on the next admitted line", () => {
    const r = new LineRateLimiter(10, 2, 0);
    assert.deepEqual(r.admit("a", 0), ["a"]);
    assert.deepEqual(r.admit("b", 0), ["b"]);
    assert.deepEqual(r.admit("c", 0), []);
    assert.deepEqual(r.admit("d", 0), []);
    const later = r.admit("e", 1000);
    assert.equal(later.length, 2);
    assert.match(later[0]!, /2 stderr line\(s\) not forwarded/);
    assert.equal(later[1], "e");
  });
});
