import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { floodChunk, parseFloodArgs } from "./flood.js";

describe("flood", () => {
  test("each chunk has exactly the asked size and says its number", () => {
    assert.equal(floodChunk(0, 10), "0.--------");
    assert.equal(floodChunk(35, 4), "z.--");
    assert.equal(floodChunk(36 ** 3, 3), "100", "a number longer than the chunk is cut, never longer");
    for (const size of [2, 10, 1024]) assert.equal(floodChunk(12345, size).length, size);
  });

  test("arguments: chunks required, size defaults to 10, hold last, anything else is refused by name", () => {
    assert.deepEqual(parseFloodArgs("2000"), { chunks: 2000, size: 10, hold: false });
    assert.deepEqual(parseFloodArgs(" 5  1024 "), { chunks: 5, size: 1024, hold: false });
    assert.deepEqual(parseFloodArgs("5 hold"), { chunks: 5, size: 10, hold: true });
    assert.deepEqual(parseFloodArgs("5 64 hold"), { chunks: 5, size: 64, hold: true });
    assert.throws(() => parseFloodArgs("hold"), /<chunks>/);
    assert.throws(() => parseFloodArgs("5 hold 10"), /<chunks>/);
    assert.throws(() => parseFloodArgs(""), /<chunks>/);
    assert.throws(() => parseFloodArgs("0"), /<chunks>/);
    assert.throws(() => parseFloodArgs("5 1"), /\[size\]/);
    assert.throws(() => parseFloodArgs("5 10 x"), /<chunks>/);
  });
});
