import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { applyAppended } from "./message-append.js";

test("a delta at the copy's end is appended", () => {
  assert.equal(applyAppended("", 0, "Hel"), "Hel");
  assert.equal(applyAppended("Hel", 3, "lo"), "Hello");
});

test("a delta past the copy's end is a gap: the client refetches", () => {
  assert.equal(applyAppended("Hel", 4, "o"), null);
  assert.equal(applyAppended("", 1, "x"), null);
});

test("a delta the copy already holds changes nothing; one it holds in part adds the rest", () => {
  assert.equal(applyAppended("Hello", 3, "lo"), "Hello");
  assert.equal(applyAppended("Hello", 0, "He"), "Hello");
  assert.equal(applyAppended("Hell", 3, "lo!"), "Hello!");
});

test("a delta that disagrees with the copy where they overlap is refetched, not merged", () => {
  assert.equal(applyAppended("Hello", 3, "xy"), null);
  assert.equal(applyAppended("Hell", 3, "xo"), null);
});

test("offsets are UTF-16 code units, as JavaScript counts them", () => {
  const emoji = "\u{1F600}"; // two code units
  assert.equal(applyAppended(emoji, 2, "!"), `${emoji}!`);
  assert.equal(applyAppended(emoji, 1, "!"), null);
});

test("any cut of a text into deltas, applied in order from any fetched prefix, rebuilds the text", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), fc.array(fc.nat(), { maxLength: 20 }), fc.nat(), (text, cuts, fetched) => {
      const points = [...new Set([0, ...cuts.map((c) => c % (text.length + 1)), text.length])].sort((a, b) => a - b);
      let copy = text.slice(0, fetched % (text.length + 1));
      for (let i = 0; i + 1 < points.length; i++) {
        const from = points[i] as number;
        const next = applyAppended(copy, from, text.slice(from, points[i + 1]));
        if (next === null) return from > copy.length; // only a real gap may refuse
        copy = next;
      }
      return copy === text;
    }),
  );
});
