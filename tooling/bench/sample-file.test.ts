import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { threeRoundTrips } from "./recorder-fixtures.js";
import { SampleFile } from "./sample-file.js";

describe("SampleFile", () => {
  test("empties the file, then appends each pass's lines", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "samples-"));
    try {
      const file = path.join(dir, "s.jsonl");
      fs.writeFileSync(file, "left over\n");
      const samples = new SampleFile(file, () => assert.fail("no error expected"));
      samples.append(threeRoundTrips(), { sessions: 1, block: 0, side: "floor" });
      samples.append(threeRoundTrips(), { sessions: 1, block: 0, side: "product" });
      const lines = fs
        .readFileSync(file, "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { side: string; kind: string });
      const kinds = ["ask", "ask", "ask", "answer", "answer", "answer"];
      assert.deepEqual(
        lines.map((l) => `${l.side} ${l.kind}`),
        [...kinds.map((k) => `floor ${k}`), ...kinds.map((k) => `product ${k}`)],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a file that cannot be created throws at once", () => {
    assert.throws(() => new SampleFile(path.join(os.tmpdir(), "no-such-dir-kandev", "s.jsonl"), () => undefined), /ENOENT/);
  });

  test("a failing append is reported once and the run goes on", () => {
    const logged: string[] = [];
    let appends = 0;
    const files = {
      writeFileSync: () => undefined,
      appendFileSync: () => {
        appends++;
        throw new Error("ENOSPC: no space left on device");
      },
    } as unknown as ConstructorParameters<typeof SampleFile>[2];
    const samples = new SampleFile("s.jsonl", (m) => logged.push(m), files);
    samples.append(threeRoundTrips(), { sessions: 1, block: 0, side: "floor" });
    samples.append(threeRoundTrips(), { sessions: 1, block: 1, side: "floor" });
    assert.equal(appends, 1, "no further attempt after the failure");
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /cannot append to s\.jsonl \(ENOSPC: no space left on device\); the run goes on without them/);
  });
});
