import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { firstDifference, floodText, ReplyRebuild } from "./reply-rebuild.js";

describe("floodText", () => {
  test("is the mock agent's chunks joined: chunks x size characters, each chunk saying its number", () => {
    assert.equal(floodText(3, 4), "0.--1.--2.--");
    assert.equal(floodText(2000, 10).length, 20_000);
    assert.equal(floodText(2000, 10).slice(19_990), "1jj.------", "chunk 1999 is 1jj in base 36");
  });
});

describe("firstDifference", () => {
  test("null when equal; otherwise where and what, in both directions of length", () => {
    assert.equal(firstDifference("abc", "abc"), null);
    assert.match(firstDifference("abcdef", "abXdef")!, /^differs at char 2 of 6 \(got 6 chars\)/);
    assert.match(firstDifference("abcdef", "abc")!, /at char 3 of 6 \(got 3 chars\)/);
    assert.match(firstDifference("abc", "abcd")!, /at char 3 of 3 \(got 4 chars\)/);
  });
});

describe("ReplyRebuild", () => {
  test("full content from the add, then deltas at their offsets: the exact reply", () => {
    const r = new ReplyRebuild();
    r.added("m1", "0.--");
    r.appended("m1", 4, "1.--2.--");
    assert.equal(r.chars, 12);
    assert.equal(r.verify(floodText(3, 4)), null);
  });

  test("a reply over several messages joins them in the order they were added", () => {
    const r = new ReplyRebuild();
    r.added("a", "0.");
    r.added("b", "1.");
    r.appended("a", 2, "--");
    r.appended("b", 2, "--");
    assert.equal(r.text(), "0.--1.--");
  });

  test("a delta past the copy's end (a frame lost) fails, and so does a repeated one", () => {
    const lost = new ReplyRebuild();
    lost.added("m", "ab");
    lost.appended("m", 4, "ef");
    assert.match(lost.verify("abef")!, /1 bad frame\(s\): message m: a delta at offset 4, but the copy holds 2 chars/);
    const repeated = new ReplyRebuild();
    repeated.added("m", "ab");
    repeated.appended("m", 2, "cd");
    repeated.appended("m", 2, "cd");
    assert.match(repeated.verify("abcd")!, /offset 2, but the copy holds 4/);
  });

  test("a delta for a message never added, or an add seen twice, fails", () => {
    const r = new ReplyRebuild();
    r.appended("x", 0, "ab");
    r.added("m", "a");
    r.added("m", "a");
    assert.match(r.verify("a")!, /2 bad frame\(s\): a delta for message x, which was never added; message m added twice/);
  });

  test("frames that fit but carry other text fail on the comparison", () => {
    const r = new ReplyRebuild();
    r.added("m", "0.--");
    r.appended("m", 4, "2.--");
    assert.match(r.verify(floodText(2, 4))!, /differs at char 4/);
  });

  test("an update with full content must agree with the copy; the longer one is kept", () => {
    const r = new ReplyRebuild();
    r.added("m", "ab");
    r.updated("m", "abcd");
    r.updated("m", "ab");
    r.updated("other", "zz");
    assert.equal(r.text(), "abcd");
    assert.equal(r.chars, 4);
    r.updated("m", "xy");
    assert.match(r.verify("abcd")!, /disagrees/);
  });
});
