import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { formatRelative, relativeFormatter, relativeParts } from "./relative-time";

const now = new Date("2026-03-01T12:00:00.000Z");
const ago = (ms: number) => new Date(now.getTime() - ms);

describe("relative time", () => {
  test("picks a unit that keeps the number small", () => {
    assert.deepEqual(relativeParts(ago(10_000), now), { value: 0, unit: "second" });
    assert.deepEqual(relativeParts(ago(5 * 60_000), now), { value: -5, unit: "minute" });
    assert.deepEqual(relativeParts(ago(3 * 3_600_000), now), { value: -3, unit: "hour" });
    assert.deepEqual(relativeParts(ago(2 * 86_400_000), now), { value: -2, unit: "day" });
  });

  test("formats in the given language and survives a bad timestamp", () => {
    assert.equal(formatRelative(ago(10_000).toISOString(), now, "en"), "now");
    assert.equal(formatRelative(ago(5 * 60_000).toISOString(), now, "en"), "5 minutes ago");
    assert.equal(formatRelative("not a date", now, "en"), "not a date");
  });

  test("one formatter per language is built once and reused, and languages do not mix", () => {
    assert.equal(relativeFormatter("en"), relativeFormatter("en"));
    assert.notEqual(relativeFormatter("en"), relativeFormatter("de"));
    assert.equal(formatRelative(ago(5 * 60_000).toISOString(), now, "de"), "vor 5 Minuten");
    assert.equal(formatRelative(ago(5 * 60_000).toISOString(), now, "en"), "5 minutes ago");
  });
});
