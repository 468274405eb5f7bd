/**
 * An ACP stream over a pair of Node pipes (agentctl: the agent's stdin/stdout; the mock agent: its
 * own): newline-delimited JSON, as the SDK's `ndJsonStream`, but read from and written to the
 * pipes directly. The SDK's version goes through `Readable.toWeb`/`Writable.toWeb` adapters, a
 * TextEncoder and a second stream on each side, and a caller inspecting messages adds a
 * TransformStream: several promise hops per message, in processes that each see few messages and
 * so run mostly unoptimised code (docs/BENCHMARKS.md). Here each side is one Web stream (the SDK's
 * interface) fed straight from the pipe, and `onMessage` sees every message on its way in.
 *
 * Same wire behaviour as the SDK's ndJsonStream: lines end at LF (a CR before it is dropped),
 * blank lines are skipped, a line longer than `maxMessageBytes` fails the stream with
 * MessageTooLargeError, invalid JSON is answered -32700, a JSON array (a batch) or a non-object
 * -32600, and a last line without a newline is still read at EOF.
 */
import type { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const LF = 0x0a;
const CR = 0x0d;

/** Splits a byte stream into LF-terminated lines (CRLF too), each at most `maxBytes` long. Pure. */
export class NdJsonLines {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The complete lines in `chunk` (without their ending); throws MessageTooLargeError past the limit. */
  push(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let start = 0;
    let nl = chunk.indexOf(LF, start);
    while (nl !== -1) {
      lines.push(this.take(chunk.subarray(start, nl)));
      start = nl + 1;
      nl = chunk.indexOf(LF, start);
    }
    if (start < chunk.length) {
      const tail = chunk.subarray(start);
      this.check(tail);
      this.pending.push(tail);
      this.pendingBytes += tail.length;
    }
    return lines;
  }

  /** The last line when the input ended without a newline, if any. */
  flush(): Buffer | undefined {
    if (this.pendingBytes === 0) return undefined;
    return this.take(Buffer.alloc(0));
  }

  private take(end: Buffer): Buffer {
    this.check(end);
    let line = end;
    if (this.pendingBytes > 0) {
      line = Buffer.concat([...this.pending, end], this.pendingBytes + end.length);
      this.pending = [];
      this.pendingBytes = 0;
    }
    return line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, -1) : line;
  }

  /** A trailing CR does not count: it may be the first half of a CRLF. */
  private check(tail: Buffer): void {
    const last = tail.length > 0 ? tail[tail.length - 1] : this.pending.at(-1)?.at(-1);
    const bytes = this.pendingBytes + tail.length - (last === CR ? 1 : 0);
    if (bytes > this.maxBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      throw new acp.MessageTooLargeError(this.maxBytes);
    }
  }
}

/** What one line of input becomes: a message for the SDK, an error answer for the agent, or nothing. */
export type LineVerdict = { message: Record<string, unknown> } | { reply: acp.AnyMessage } | null;

function protocolError(error: acp.RequestError): acp.AnyMessage {
  return { jsonrpc: "2.0", id: null, error: error.toErrorResponse() } as acp.AnyMessage;
}

/** Decodes one line as the SDK's ndJsonStream does. Pure. */
export function decodeLine(line: Buffer): LineVerdict {
  const text = line.toString("utf8").trim();
  if (text.length === 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { reply: protocolError(acp.RequestError.parseError()) };
  }
  // ACP has no JSON-RPC batches: one -32600 with id null, the entries unprocessed.
  if (Array.isArray(value)) return { reply: protocolError(acp.RequestError.invalidRequest(undefined, "JSON-RPC batches are not supported")) };
  if (typeof value !== "object" || value === null) return { reply: protocolError(acp.RequestError.invalidRequest(value)) };
  return { message: value as Record<string, unknown> };
}

export interface StdioStreamOptions {
  maxMessageBytes: number;
  /** Sees every message read, in order; returns what the SDK gets, or null to drop it. */
  onMessage: (message: Record<string, unknown>) => acp.AnyMessage | null;
  /** Messages read but not yet taken by the SDK before the agent's stdout is paused. */
  highWaterMark?: number;
  /**
   * Sees every message the SDK writes just before it is encoded and written, and may change it:
   * the last moment before its bytes reach the pipe (the mock agent stamps the benchmark's send
   * times here).
   */
  onWrite?: (message: acp.AnyMessage) => void;
}

/** The ACP `Stream` over an agent's stdin/stdout. */
export function stdioJsonStream(stdin: Writable, stdout: Readable, options: StdioStreamOptions): acp.Stream {
  /** Set once a write to the agent failed: every later write fails with it (the SDK then closes). */
  let writeError: Error | null = null;
  let onWriteError: (err: Error) => void = () => {};
  /**
   * One JSON line to the agent. Resolves at once while the pipe takes data (no promise round trip
   * per message); waits for 'drain' when the agent is not reading, so nothing piles up unbounded.
   */
  const write = (message: acp.AnyMessage): Promise<void> | undefined => {
    if (writeError !== null) return Promise.reject(writeError);
    if (stdin.destroyed || stdin.writableEnded) return Promise.reject(new Error("the agent's stdin is closed"));
    options.onWrite?.(message);
    const text = `${JSON.stringify(message)}\n`;
    const more = stdin.write(text, (err) => {
      if (err && writeError === null) {
        writeError = err;
        onWriteError(err);
      }
    });
    if (more) return undefined;
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        stdin.off("drain", done);
        stdin.off("close", done);
        if (writeError !== null) reject(writeError);
        else resolve();
      };
      stdin.on("drain", done);
      stdin.on("close", done);
    });
  };
  let detach = () => {};
  const readable = new ReadableStream<acp.AnyMessage>(
    {
      start(controller) {
        const lines = new NdJsonLines(options.maxMessageBytes);
        let done = false;
        const handle = (line: Buffer) => {
          const verdict = decodeLine(line);
          if (verdict === null) return;
          if ("reply" in verdict) {
            write(verdict.reply)?.catch(() => undefined);
            return;
          }
          const message = options.onMessage(verdict.message);
          if (message !== null) controller.enqueue(message);
        };
        const fail = (err: unknown) => {
          if (done) return;
          done = true;
          detach();
          controller.error(err);
          stdout.destroy();
        };
        const onData = (chunk: Buffer) => {
          if (done) return;
          try {
            for (const line of lines.push(chunk)) handle(line);
          } catch (err) {
            fail(err);
            return;
          }
          if ((controller.desiredSize ?? 1) <= 0) stdout.pause();
        };
        const onEnd = () => {
          if (done) return;
          try {
            const last = lines.flush();
            if (last !== undefined) handle(last);
          } catch (err) {
            fail(err);
            return;
          }
          done = true;
          detach();
          controller.close();
        };
        // Closed without an end or an error (destroyed): the stream fails, as Readable.toWeb's does.
        const onClose = () => fail(Object.assign(new Error("The operation was aborted"), { name: "AbortError" }));
        detach = () => {
          stdout.off("data", onData);
          stdout.off("end", onEnd);
          stdout.off("error", fail);
          stdout.off("close", onClose);
        };
        stdout.on("data", onData);
        stdout.on("end", onEnd);
        stdout.on("error", fail);
        stdout.on("close", onClose);
      },
      pull() {
        if (stdout.isPaused()) stdout.resume();
      },
      cancel() {
        detach();
        stdout.destroy();
      },
    },
    new CountQueuingStrategy({ highWaterMark: options.highWaterMark ?? 64 }),
  );
  const writable = new WritableStream<acp.AnyMessage>({
    start(controller) {
      onWriteError = (err) => controller.error(err);
    },
    write: (message) => write(message),
    close: () => new Promise<void>((resolve) => stdin.end(resolve)),
    abort: (reason) => void stdin.destroy(reason instanceof Error ? reason : undefined),
  });
  return { readable, writable };
}
