import { appendFileSync } from "node:fs";
import type * as acp from "@agentclientprotocol/sdk";

/** One line of the MOCK_AGENT_LOG file. */
export interface FrameLogLine {
  dir: "in" | "out";
  frame: unknown;
  ts: number;
}

/**
 * Wraps an ACP message stream so every JSON-RPC frame in and out is appended to `file` as one JSON
 * line. Writes are synchronous so a crash (the `crash` scenario exits mid-turn) loses nothing.
 */
export function tapStream(stream: acp.Stream, file: string, now: () => number = Date.now): acp.Stream {
  const record = (dir: "in" | "out", frame: unknown) => {
    const line: FrameLogLine = { dir, frame, ts: now() };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  const readable = stream.readable.pipeThrough(
    new TransformStream<acp.AnyMessage, acp.AnyMessage>({
      transform(message, controller) {
        record("in", message);
        controller.enqueue(message);
      },
    }),
  );
  const writer = stream.writable.getWriter();
  const writable = new WritableStream<acp.AnyMessage>({
    write(message) {
      record("out", message);
      return writer.write(message);
    },
    close() {
      return writer.close();
    },
    abort(reason) {
      return writer.abort(reason);
    },
  });
  return { readable, writable };
}

/** How much of a raw line the log keeps: fuzz lines can be megabytes. */
export const RAW_LOG_CHARS = 512;

/**
 * The log line for a raw write (not a JSON-RPC frame): `frame` is `{raw, bytes}` with the line's
 * first RAW_LOG_CHARS characters, so readers that look for `frame.method`/`frame.id` skip it.
 */
export function rawLogLine(line: string, now: () => number = Date.now): string {
  const entry: FrameLogLine = { dir: "out", frame: { raw: line.slice(0, RAW_LOG_CHARS), bytes: Buffer.byteLength(line) }, ts: now() };
  return `${JSON.stringify(entry)}\n`;
}

/** Reads a frame log back (for tests). */
export function parseFrameLog(text: string): FrameLogLine[] {
  return text
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as FrameLogLine);
}
