import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { NdJsonLines, decodeLine, stdioJsonStream } from "./ndjson.js";

const text = (lines: Buffer[]) => lines.map((l) => l.toString());

describe("NdJsonLines", () => {
  test("splits on LF, drops the CR of a CRLF (also across chunks), carries partial lines, flushes the last one", () => {
    const lines = new NdJsonLines(100);
    assert.deepEqual(text(lines.push(Buffer.from('{"a":1}\n{"b"'))), ['{"a":1}']);
    assert.deepEqual(text(lines.push(Buffer.from(":2}\r"))), []);
    assert.deepEqual(text(lines.push(Buffer.from('\n\n{"c":3}\r\nx'))), ['{"b":2}', "", '{"c":3}']);
    assert.deepEqual(lines.flush()?.toString(), "x");
    assert.equal(lines.flush(), undefined);
    assert.deepEqual(text(lines.push(Buffer.from("a\rb\n"))), ["a\rb"], "a lone CR is not a line end");
  });

  test("a line longer than the limit throws MessageTooLargeError, whether it arrives whole or in pieces; exactly the limit passes", () => {
    assert.deepEqual(text(new NdJsonLines(5).push(Buffer.from("12345\n"))), ["12345"]);
    assert.deepEqual(text(new NdJsonLines(5).push(Buffer.from("12345\r\n"))), ["12345"], "the CR of a CRLF does not count");
    assert.throws(() => new NdJsonLines(5).push(Buffer.from("123456\n")), acp.MessageTooLargeError);
    const pieces = new NdJsonLines(5);
    pieces.push(Buffer.from("123"));
    assert.throws(() => pieces.push(Buffer.from("456")), acp.MessageTooLargeError);
    const crTail = new NdJsonLines(5);
    assert.deepEqual(text(crTail.push(Buffer.from("12345\r"))), [], "a trailing CR may be half a CRLF");
    assert.deepEqual(text(crTail.push(Buffer.from("\n"))), ["12345"]);
  });
});

describe("decodeLine (as the SDK's ndJsonStream)", () => {
  const errorOf = (v: ReturnType<typeof decodeLine>) =>
    v !== null && "reply" in v ? (v.reply as { id: unknown; error: { code: number; message: string } }) : null;

  test("objects pass; blank lines are skipped; surrounding whitespace (and a BOM) is trimmed", () => {
    assert.deepEqual(decodeLine(Buffer.from('  {"jsonrpc":"2.0","method":"m"} ')), { message: { jsonrpc: "2.0", method: "m" } });
    assert.deepEqual(decodeLine(Buffer.from('\ufeff{"a":1}')), { message: { a: 1 } });
    assert.equal(decodeLine(Buffer.from("   \t")), null);
  });

  test("invalid JSON -> -32700; an array (batch) or a non-object -> -32600, all with id null", () => {
    const parse = errorOf(decodeLine(Buffer.from("{nope")));
    assert.deepEqual([parse?.id, parse?.error.code], [null, -32700]);
    const batch = errorOf(decodeLine(Buffer.from("[1,2]")));
    assert.deepEqual([batch?.id, batch?.error.code], [null, -32600]);
    assert.match(batch!.error.message, /batches are not supported/);
    for (const v of ["3", '"s"', "null", "true"]) assert.equal(errorOf(decodeLine(Buffer.from(v)))?.error.code, -32600, v);
  });
});

describe("stdioJsonStream", () => {
  async function readAll(stream: acp.Stream, n: number): Promise<unknown[]> {
    const reader = stream.readable.getReader();
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) out.push((await reader.read()).value);
    reader.releaseLock();
    return out;
  }

  test("messages read from stdout reach the reader through onMessage (null drops); writes are one JSON line each; a bad line is answered on stdin", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const written: string[] = [];
    stdin.on("data", (c: Buffer) => written.push(c.toString()));
    const stream = stdioJsonStream(stdin, stdout, {
      maxMessageBytes: 1024,
      onMessage: (m) => (m.drop === true ? null : ({ ...m, seen: true } as unknown as acp.AnyMessage)),
    });
    stdout.write('{"id":1}\n{"drop":true}\n{not json}\n{"id"');
    stdout.write(":2}\n");
    assert.deepEqual(await readAll(stream, 2), [
      { id: 1, seen: true },
      { id: 2, seen: true },
    ]);
    const writer = stream.writable.getWriter();
    await writer.write({ jsonrpc: "2.0", id: 7, result: {} } as acp.AnyMessage);
    writer.releaseLock();
    assert.equal(written.length, 2);
    assert.equal((JSON.parse(written[0]!) as { error: { code: number } }).error.code, -32700);
    assert.equal(written[1], '{"jsonrpc":"2.0","id":7,"result":{}}\n');
  });

  test("onWrite sees each message just before it is encoded, and what it changes is what is written", async () => {
    const stdin = new PassThrough();
    const written: string[] = [];
    stdin.on("data", (c: Buffer) => written.push(c.toString()));
    const seen: unknown[] = [];
    const stream = stdioJsonStream(stdin, new PassThrough(), {
      maxMessageBytes: 1024,
      onMessage: (m) => m as unknown as acp.AnyMessage,
      onWrite: (m) => {
        seen.push(structuredClone(m));
        (m as { stamped?: number }).stamped = seen.length;
      },
    });
    const writer = stream.writable.getWriter();
    await writer.write({ jsonrpc: "2.0", id: 1, result: {} } as acp.AnyMessage);
    await writer.write({ jsonrpc: "2.0", method: "n" } as acp.AnyMessage);
    writer.releaseLock();
    assert.deepEqual(seen, [
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", method: "n" },
    ]);
    assert.deepEqual(written, ['{"jsonrpc":"2.0","id":1,"result":{},"stamped":1}\n', '{"jsonrpc":"2.0","method":"n","stamped":2}\n']);
  });

  test("writes resolve while the pipe takes data, wait for 'drain' when it is full, and fail once stdin is gone", async () => {
    const stdin = new PassThrough({ highWaterMark: 16 });
    const stream = stdioJsonStream(stdin, new PassThrough(), { maxMessageBytes: 1024, onMessage: (m) => m as unknown as acp.AnyMessage });
    const writer = stream.writable.getWriter();
    let drained = false;
    const full = writer.write({ jsonrpc: "2.0", method: "x".repeat(64) } as acp.AnyMessage).then(() => (drained = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(drained, false, "the agent has not read yet");
    stdin.read();
    await full;
    assert.equal(drained, true);
    stdin.destroy();
    await assert.rejects(writer.write({ jsonrpc: "2.0", method: "y" } as acp.AnyMessage));
  });

  test("EOF delivers a last line without newline, then the stream closes", async () => {
    const stdout = new PassThrough();
    const stream = stdioJsonStream(new PassThrough(), stdout, { maxMessageBytes: 1024, onMessage: (m) => m as unknown as acp.AnyMessage });
    stdout.end('{"a":1}\n{"b":2}');
    const reader = stream.readable.getReader();
    assert.deepEqual((await reader.read()).value, { a: 1 });
    assert.deepEqual((await reader.read()).value, { b: 2 });
    assert.equal((await reader.read()).done, true);
  });

  test("a line past the limit fails the stream with MessageTooLargeError and stops reading the agent", async () => {
    const stdout = new PassThrough();
    const stream = stdioJsonStream(new PassThrough(), stdout, { maxMessageBytes: 8, onMessage: (m) => m as unknown as acp.AnyMessage });
    stdout.write('{"toolong":1}\n');
    await assert.rejects(stream.readable.getReader().read(), acp.MessageTooLargeError);
    assert.equal(stdout.destroyed, true);
  });

  test("the agent's stdout pauses while the reader is this many messages behind, and resumes as it reads", async () => {
    const stdout = new PassThrough();
    const stream = stdioJsonStream(new PassThrough(), stdout, {
      maxMessageBytes: 1024,
      onMessage: (m) => m as unknown as acp.AnyMessage,
      highWaterMark: 2,
    });
    stdout.write('{"n":1}\n{"n":2}\n{"n":3}\n');
    await new Promise((r) => setImmediate(r));
    assert.equal(stdout.isPaused(), true);
    assert.deepEqual(await readAll(stream, 3), [{ n: 1 }, { n: 2 }, { n: 3 }]);
    await new Promise((r) => setImmediate(r));
    assert.equal(stdout.isPaused(), false);
  });
});
