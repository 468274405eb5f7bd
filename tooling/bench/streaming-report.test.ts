import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  sideOver,
  checkStreamingTargets,
  renderStreaming,
  streamFigures,
  streamingJson,
  type StreamCase,
  type StreamSide,
  type StreamingResult,
} from "./streaming-report.js";

/** A side whose figures are easy to check by hand: `perByte` /ws and disk bytes and `usPerByte` CPU per byte of text. */
function side(textBytes: number, o: { ws?: number; disk?: number; usPerByte?: number; lastFrameMs?: number[] } = {}): StreamSide {
  const cpuMs = ((o.usPerByte ?? 1) * textBytes) / 1000;
  return {
    wsBytes: (o.ws ?? 1.2) * textBytes,
    frames: 10,
    diskBytes: { backend: (o.disk ?? 5) * textBytes * 0.75, agentctl: (o.disk ?? 5) * textBytes * 0.25 },
    cpu: { backend: cpuMs / 2, agentctl: cpuMs / 4, agent: cpuMs / 4, operator: 99 },
    lastFrameMs: o.lastFrameMs ?? [40, 60],
    wallMs: 1500,
  };
}

function streamCase(sessions: number, chunks: number, product: Parameters<typeof side>[1] = {}): StreamCase {
  const bytes = sessions * chunks * 10;
  return { sessions, chunks, size: 10, product: side(bytes, product), floor: side(bytes, { ws: 14, disk: 0, usPerByte: 0.5, lastFrameMs: [2] }) };
}

const PAGE = { messages: 5000, coldMs: 1800, warmMs: [600, 700], keyMs: [8, 12], longTaskMaxMs: 90 };

function result(cases: StreamCase[], transcript: StreamingResult["transcript"] = PAGE): StreamingResult {
  return { cases, transcript };
}

describe("sideOver", () => {
  test("a side's cost is the readings' difference, with what its client received", () => {
    const before = { cpu: { backend: 10, agentctl: 5, agent: 1, operator: 2 }, disk: { backend: 100, agentctl: 7 } };
    const after = { cpu: { backend: 30, agentctl: 6, agent: 4, operator: 3 }, disk: { backend: 4196, agentctl: 7 } };
    assert.deepEqual(sideOver({ wsBytes: 9, frames: 2, lastFrameMs: [12] }, before, after, 800), {
      wsBytes: 9,
      frames: 2,
      lastFrameMs: [12],
      diskBytes: { backend: 4096, agentctl: 0 },
      cpu: { backend: 20, agentctl: 1, agent: 3, operator: 1 },
      wallMs: 800,
    });
  });
});

describe("streamFigures", () => {
  test("bytes per byte of text, CPU per chunk per role, cost without the bench's own CPU, the worst session", () => {
    const c = streamCase(10, 2000);
    const f = streamFigures(c, c.product);
    assert.equal(f.textBytes, 200_000);
    assert.equal(f.wsPerByte, 1.2);
    assert.equal(f.diskPerByte, 5);
    assert.equal(f.cpuPerChunk.backend, 100 / 20_000);
    assert.equal(f.cpuPerChunk.operator, 99 / 20_000);
    assert.equal(f.costUsPerByte, 1);
    assert.equal(f.lastFrameMs, 60);
  });

  test("a side that measured nothing is NaN, never zero", () => {
    const c = streamCase(1, 2000, { lastFrameMs: [] });
    assert.ok(Number.isNaN(streamFigures(c, c.product).lastFrameMs));
    assert.ok(Number.isNaN(streamFigures({ sessions: 0, chunks: 0, size: 10 }, c.product).wsPerByte));
  });
});

describe("checkStreamingTargets", () => {
  const full = [streamCase(1, 2000), streamCase(1, 8000, { usPerByte: 1.4 }), streamCase(10, 2000), streamCase(10, 8000, { usPerByte: 1.6 })];

  test("bytes at every size, linearity per session count, the last frame only at the most sessions, the page", () => {
    const checks = checkStreamingTargets(result(full));
    assert.deepEqual(
      checks.map((c) => [c.target, c.ok]),
      [
        ["/ws bytes <= 3 per byte of text, 1 x 2,000 chunks", true],
        ["disk bytes <= 20 per byte of text, 1 x 2,000 chunks", true],
        ["/ws bytes <= 3 per byte of text, 1 x 8,000 chunks", true],
        ["disk bytes <= 20 per byte of text, 1 x 8,000 chunks", true],
        ["/ws bytes <= 3 per byte of text, 10 x 2,000 chunks", true],
        ["disk bytes <= 20 per byte of text, 10 x 2,000 chunks", true],
        ["/ws bytes <= 3 per byte of text, 10 x 8,000 chunks", true],
        ["disk bytes <= 20 per byte of text, 10 x 8,000 chunks", true],
        ["CPU per byte of a 1 x 8,000 reply <= 1.5x a 1 x 2,000 one", true],
        ["CPU per byte of a 10 x 8,000 reply <= 1.5x a 10 x 2,000 one", false],
        ["last frame <= 250 ms after the agent's last chunk, 10 x 2,000 chunks (worst session)", true],
        ["last frame <= 250 ms after the agent's last chunk, 10 x 8,000 chunks (worst session)", true],
        ["a task page of 5,000 messages shows its newest < 1000 ms (every warm load)", true],
        ["on that page a typed key shows < 100 ms (every key)", true],
      ],
    );
    assert.equal(checks[0]!.measured, "1.20 (floor 14.00)");
    assert.equal(checks[9]!.measured, "1.60x (1.60 vs 1.00 us/B)");
  });

  test("each limit is inclusive for bytes and the last frame, and misses are reported", () => {
    const checks = checkStreamingTargets(result([streamCase(10, 2000, { ws: 3.01, disk: 20, lastFrameMs: [250, 251] })], null));
    assert.deepEqual(
      checks.map((c) => c.ok),
      [false, true, false],
    );
    assert.equal(checks[2]!.measured, "251.0 ms (floor 2.0 ms)");
  });

  test("a page that could not be measured is a miss with its reason; a slow warm load or key is a miss", () => {
    assert.deepEqual(checkStreamingTargets(result([], { error: "no Chromium" })), [
      { target: "a task page of a long transcript", measured: "not measured: no Chromium", ok: false },
    ]);
    const slow = checkStreamingTargets(result([], { ...PAGE, warmMs: [900, 1000], keyMs: [] }));
    assert.deepEqual(
      slow.map((c) => c.ok),
      [false, false],
    );
  });
});

describe("renderStreaming and streamingJson", () => {
  test("one row per case and side, the page, then the targets; JSON carries the same figures", () => {
    const r = result([streamCase(1, 2000)]);
    const text = renderStreaming(r);
    assert.match(text, /\| 1 x 2,000 +\| product \| 20 KB +\| 1\.20 +\| 5\.0 +\|/);
    assert.match(text, /\| 1 x 2,000 +\| floor +\| 20 KB +\| 14\.00 +\|/);
    assert.match(text, /Task page \(Chromium\) of 5,000 messages: the newest on screen 1800 ms after navigation start cold, then 600 \/ 700 ms/);
    assert.match(text, /\| \/ws bytes <= 3 per byte of text, 1 x 2,000 chunks +\| 1\.20 \(floor 14\.00\) +\| yes +\|/);
    const json = streamingJson(r) as { cases: Array<{ product: { ws_bytes_per_byte: number; last_frame_ms: number } }> };
    assert.equal(json.cases[0]!.product.ws_bytes_per_byte, 1.2);
    assert.equal(json.cases[0]!.product.last_frame_ms, 60);
  });
});
