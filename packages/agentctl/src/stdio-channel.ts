// Transport side of the agent stream: agentctl's own stdin and stdout, one JSON envelope per line
// (the backend spawned us and holds the other ends). A pipe cannot drop a frame while both
// processes live, so there is no reconnecting, numbering or replay; when stdin ends the backend
// is gone. Frames are opaque text here; session-mux.ts gives them meaning.
import type { Readable, Writable } from "node:stream";
import { LineFramer } from "@kandev/acp-stdio";
import type { Envelope } from "@kandev/protocol";

/** The longest line agentctl reads; a longer one is dropped alone and answered BAD_REQUEST. */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

export interface StdioChannelOptions {
  input: Readable;
  output: Writable;
  /** Called for every complete line, in order. */
  onLine: (line: string) => void;
  /** Called for a line over `maxFrameBytes`, with its length; it was not kept. */
  onOversized: (bytes: number) => void;
  log: (message: string) => void;
  maxFrameBytes?: number;
}

export interface StdioChannel {
  /** Writes one frame as a line; false once the output is gone (nothing is buffered for later). */
  write(frame: Envelope): boolean;
  /** Resolves, with why, when the input ended or failed: the backend is gone. */
  readonly ended: Promise<string>;
}

export function openStdioChannel(options: StdioChannelOptions): StdioChannel {
  const { input, output, log } = options;
  const framer = new LineFramer(options.maxFrameBytes ?? MAX_FRAME_BYTES);
  let outputGone = false;
  output.on("error", (err: Error) => {
    if (!outputGone) log(`agentctl: cannot write to the backend: ${err.message}`);
    outputGone = true;
  });
  const deliver = (items: ReturnType<LineFramer["push"]>) => {
    for (const item of items) {
      if ("line" in item) options.onLine(item.line);
      else options.onOversized(item.tooLong);
    }
  };
  const ended = new Promise<string>((resolve) => {
    input.on("data", (chunk: Buffer | string) => deliver(framer.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)));
    input.once("end", () => {
      deliver(framer.flush());
      resolve("stdin closed");
    });
    input.once("error", (err: Error) => resolve(`stdin failed: ${err.message}`));
  });
  return {
    write(frame) {
      if (outputGone || output.destroyed || output.writableEnded) return false;
      output.write(`${JSON.stringify(frame)}\n`);
      return true;
    },
    ended,
  };
}
