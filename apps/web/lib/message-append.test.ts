import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Message, MessageAppended } from "@kandev/protocol";
import { appendToPages, pageWithAppends } from "./message-append";
import type { Pages } from "./paged-list";
import { makeMessage } from "./test-fixtures";

const delta = (offset: number, text: string, message_id = "m2"): MessageAppended => ({ session_id: "s1", task_id: "t1", message_id, offset, text });

function transcript(): Pages<Message> {
  return {
    pages: [
      { items: [makeMessage({ id: "m1", content: "hi" }), makeMessage({ id: "m2", content: "Hel" })], next: "c1" },
      { items: [makeMessage({ id: "m0", content: "older" })], next: null },
    ],
    pageParams: [null, "c1"],
  };
}

describe("appendToPages", () => {
  test("lays a delta at its message's end and leaves every other object as it was", () => {
    const before = transcript();
    const after = appendToPages(before, delta(3, "lo"));
    assert.ok(after !== null);
    assert.equal(after.pages[0]?.items[1]?.content, "Hello");
    assert.equal(after.pages[0]?.items[0], before.pages[0]?.items[0], "the other message is the same object: its row does not re-render");
    assert.equal(after.pages[1], before.pages[1], "other pages are untouched");
    assert.equal(before.pages[0]?.items[1]?.content, "Hel", "the cache's old value is not mutated");
  });

  test("a delta past the message's end (one was missed) asks for a refetch", () => {
    assert.equal(appendToPages(transcript(), delta(4, "o")), null);
  });

  test("a delta for a message that is not loaded asks for a refetch", () => {
    assert.equal(appendToPages(transcript(), delta(0, "x", "m9")), null);
  });

  test("a delta the cache already holds returns the same pages: nothing re-renders", () => {
    const before = transcript();
    assert.equal(appendToPages(before, delta(1, "el")), before);
  });
});

describe("pageWithAppends", () => {
  test("adds the deltas that arrived during a fetch, whether the fetch read their text or not", () => {
    const page = { items: [makeMessage({ id: "m2", content: "Hell" })], next: null };
    // The fetch read "Hell": "lo" is half held, "!" is new, a delta for another message is ignored.
    const out = pageWithAppends(page, [delta(3, "lo"), delta(0, "x", "m9"), delta(5, "!")]);
    assert.equal(out.items[0]?.content, "Hello!");
  });

  test("returns the page itself when no delta adds anything", () => {
    const page = { items: [makeMessage({ id: "m2", content: "Hello" })], next: null };
    assert.equal(pageWithAppends(page, []), page);
    assert.equal(pageWithAppends(page, [delta(0, "Hel")]), page);
  });

  test("leaves out a delta that does not fit; the cache asks for a refetch on the next one", () => {
    const page = { items: [makeMessage({ id: "m2", content: "He" })], next: null };
    assert.equal(pageWithAppends(page, [delta(4, "o")]).items[0]?.content, "He");
  });
});
