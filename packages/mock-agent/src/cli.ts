#!/usr/bin/env node
// The mock ACP agent over stdio. MOCK_AGENT_LOG=<file> records every JSON-RPC frame.
import { appendFileSync } from "node:fs";
import { Readable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { createMockAgent } from "./agent.js";
import { rawLogLine, tapStream } from "./frame-log.js";
import { scenarios } from "./scenarios/index.js";

const logFile = process.env.MOCK_AGENT_LOG;
const log = (message: string) => process.stderr.write(`mock-agent: ${message}\n`);

// Not Writable.toWeb(process.stdout): on Node 20 its sink skips a chunk outright when the stream
// already needs a drain, which happens as soon as anything else (writeRaw below) writes to stdout
// too; frames were silently lost (found by the fuzz suite). This sink always writes, in call order.
const stdoutSink = new WritableStream<Uint8Array>({
  write: (chunk) => new Promise<void>((resolve, reject) => process.stdout.write(chunk, (err) => (err ? reject(err) : resolve()))),
});
let stream = acp.ndJsonStream(stdoutSink, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
if (logFile !== undefined && logFile.length > 0) stream = tapStream(stream, logFile);

// Raw lines (the fuzz scenarios' junk) go to the same stdout as the SDK's frames; each write is one
// whole line, so they interleave with frames but never split one.
const writeRaw = (line: string) =>
  new Promise<void>((resolve, reject) => {
    if (logFile !== undefined && logFile.length > 0) appendFileSync(logFile, rawLogLine(line));
    process.stdout.write(`${line}\n`, (err) => (err ? reject(err) : resolve()));
  });

const { app } = createMockAgent({ scenarios, log, writeRaw });
const connection = app.connect(stream);
// The client closed our stdin (or the stream broke): nothing more can happen, so leave.
void connection.closed.then(() => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
