#!/usr/bin/env node
// The mock ACP agent over stdio. MOCK_AGENT_LOG=<file> records every JSON-RPC frame.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { createMockAgent } from "./agent.js";
import { tapStream } from "./frame-log.js";
import { scenarios } from "./scenarios/index.js";

const logFile = process.env.MOCK_AGENT_LOG;
const log = (message: string) => process.stderr.write(`mock-agent: ${message}\n`);

let stream = acp.ndJsonStream(
  Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
  Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
);
if (logFile !== undefined && logFile.length > 0) stream = tapStream(stream, logFile);

const { app } = createMockAgent({ scenarios, log });
const connection = app.connect(stream);
// The client closed our stdin (or the stream broke): nothing more can happen, so leave.
void connection.closed.then(() => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
