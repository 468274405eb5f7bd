import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HttpError } from "./errors.js";
import { cutPage, decodeCursor, encodeCursor, MAX_PAGE_LIMIT, parsePageRequest } from "./pagination.js";

const q = (s: string) => new URLSearchParams(s);

function badRequest(fn: () => unknown, what: RegExp): void {
  assert.throws(fn, (err: unknown) => err instanceof HttpError && err.status === 400 && err.code === "BAD_REQUEST" && what.test(err.message));
}

describe("list pagination", () => {
  test("a cursor round-trips its key and is url-safe", () => {
    const key = ["2026-12-05T03:00:00.000Z", 42] as const;
    const cursor = encodeCursor(key);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeCursor(cursor, ["s", "n"]), key);
  });

  test("a cursor of another shape, junk, or a negative or fractional number is refused", () => {
    assert.equal(decodeCursor(encodeCursor([7]), ["s", "n"]), null);
    assert.equal(decodeCursor(encodeCursor(["a", 1]), ["n"]), null);
    assert.equal(decodeCursor(encodeCursor([-1]), ["n"]), null);
    assert.equal(decodeCursor(encodeCursor([1.5]), ["n"]), null);
    assert.equal(decodeCursor("not a cursor!", ["n"]), null);
    assert.equal(decodeCursor(Buffer.from("{").toString("base64url"), ["n"]), null);
    assert.equal(decodeCursor("", ["n"]), null);
  });

  test("limit and cursor are read from the query; none given means the whole list", () => {
    assert.deepEqual(parsePageRequest(q(""), ["n"]), {});
    assert.deepEqual(parsePageRequest(q(`limit=5&cursor=${encodeCursor([3])}`), ["n"]), { limit: 5, cursor: [3] });
    assert.deepEqual(parsePageRequest(q(`limit=${MAX_PAGE_LIMIT}`), ["n"]), { limit: MAX_PAGE_LIMIT });
  });

  test("a limit that is not a whole number from 1 to the maximum is a 400 naming limit", () => {
    for (const bad of ["0", "-1", "1.5", "abc", "", `${MAX_PAGE_LIMIT + 1}`, "99999999999"]) {
      badRequest(() => parsePageRequest(q(`limit=${encodeURIComponent(bad)}`), ["n"]), /limit/);
    }
  });

  test("a cursor the list never gave out is a 400 naming cursor", () => {
    badRequest(() => parsePageRequest(q("cursor=zzz"), ["n"]), /cursor/);
    badRequest(() => parsePageRequest(q(`cursor=${encodeCursor(["x", 1])}`), ["n"]), /cursor/);
  });

  test("a page is cut from limit + 1 rows, its cursor the last kept row's key", () => {
    const rows = [1, 2, 3, 4];
    assert.deepEqual(
      cutPage(rows, 3, (r) => [r]),
      { items: [1, 2, 3], next: encodeCursor([3]) },
    );
    assert.deepEqual(
      cutPage(rows.slice(0, 3), 3, (r) => [r]),
      { items: [1, 2, 3], next: null },
    );
    assert.deepEqual(
      cutPage(rows, undefined, (r) => [r]),
      { items: rows, next: null },
    );
  });
});
