import type { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { stdioJsonStream } from "@kandev/acp-stdio";
import type { BenchWireStamps } from "./scenarios/bench-wire.js";

/**
 * The mock agent's ACP stream over a pair of pipes (the CLI: its stdout and stdin), with
 * bench-elicit's times taken where messages meet them (scenarios/bench-wire.ts).
 */
export function pipeStream(output: Writable, input: Readable, wireStamps: BenchWireStamps): acp.Stream {
  return stdioJsonStream(output, input, {
    maxMessageBytes: acp.DEFAULT_MAX_MESSAGE_BYTES,
    onMessage: (message) => {
      wireStamps.onRead(message);
      return message as acp.AnyMessage;
    },
    onWrite: (message) => wireStamps.beforeWrite(message),
  });
}
