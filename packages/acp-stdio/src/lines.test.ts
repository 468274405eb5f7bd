import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { LineFramer, type FramedLine } from "./lines.js";

const lines = (framer: LineFramer, ...chunks: string[]): FramedLine[] => [...chunks.flatMap((c) => framer.push(Buffer.from(c, "utf8")))];

describe("LineFramer", () => {
  test("splits at LF, drops a CR before it, skips blank lines, keeps a split line whole", () => {
    const f = new LineFramer(100);
    assert.deepEqual(lines(f, "a\r\n\nb", "c\n", "d"), [{ line: "a" }, { line: "bc" }]);
    assert.deepEqual(f.flush(), [{ line: "d" }]);
    assert.deepEqual(f.flush(), []);
  });

  test("a line over the limit is dropped alone and reported at its newline; the next line is read", () => {
    const f = new LineFramer(4);
    assert.deepEqual(lines(f, "ok\n12", "345", "67\nnext\n"), [{ line: "ok" }, { tooLong: 7 }, { line: "next" }]);
    assert.deepEqual(lines(f, "1234\r\n"), [{ line: "1234" }], "a CR before the LF does not count");
  });

  test("an unterminated oversized line at EOF is reported, not returned", () => {
    const f = new LineFramer(2);
    assert.deepEqual(lines(f, "abcdef"), []);
    assert.deepEqual(f.flush(), [{ tooLong: 6 }]);
  });

  test("any chunking of the same bytes yields the same lines", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z\n]{0,12}$/), { maxLength: 8 }), fc.integer({ min: 1, max: 6 }), (parts, max) => {
        const text = parts.join("");
        const whole = new LineFramer(max);
        const expected = [...whole.push(Buffer.from(text)), ...whole.flush()];
        const byByte = new LineFramer(max);
        const got = [...[...text].flatMap((ch) => byByte.push(Buffer.from(ch))), ...byByte.flush()];
        assert.deepEqual(got, expected);
      }),
    );
  });
});
