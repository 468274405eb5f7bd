import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { appendLogLines, mergeFetchedLog } from "./agent-log";

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const line = (s: number, text: string) => ({ at: at(s), text });

describe("agent log lines", () => {
  test("appending keeps order and the newest max lines", () => {
    const out = appendLogLines([line(1, "a"), line(2, "b")], [line(3, "c")], 2);
    assert.deepEqual(
      out.map((l) => l.text),
      ["b", "c"],
    );
  });

  test("a fetch keeps the live lines newer than its newest line", () => {
    const fetched = [line(1, "a"), line(2, "b")];
    const cached = [line(1, "a"), line(2, "b"), line(3, "c")];
    assert.deepEqual(
      mergeFetchedLog(fetched, cached).map((l) => l.text),
      ["a", "b", "c"],
    );
  });

  test("a live line the fetch already has is not doubled, even in the same millisecond", () => {
    const fetched = [line(1, "a"), line(2, "b")];
    assert.deepEqual(
      mergeFetchedLog(fetched, [line(2, "b")]).map((l) => l.text),
      ["a", "b"],
    );
    assert.deepEqual(
      mergeFetchedLog(fetched, [line(2, "b"), line(2, "b2")]).map((l) => l.text),
      ["a", "b", "b2"],
    );
  });

  test("nothing cached or nothing fetched", () => {
    assert.deepEqual(
      mergeFetchedLog([line(1, "a")], undefined).map((l) => l.text),
      ["a"],
    );
    assert.deepEqual(
      mergeFetchedLog([], [line(1, "live")]).map((l) => l.text),
      ["live"],
    );
  });
});
