#!/usr/bin/env node
// The mock ACP agent over stdio. MOCK_AGENT_LOG=<file> records every JSON-RPC frame;
// MOCK_AGENT_FLOOD_LOG=<file> the end of every /e2e:flood turn (scenarios/flood.ts).
import { appendFileSync, existsSync } from "node:fs";
import type * as acp from "@agentclientprotocol/sdk";
import { createMockAgent } from "./agent.js";
import { pipeStream } from "./pipes.js";
import { floodLogFile, frameLogFile, sessionStateEnabled, startGateFile } from "./env.js";
import { rawLogLine, tapStream } from "./frame-log.js";
import { BenchWireStamps } from "./scenarios/bench-wire.js";
import { benchNow } from "./scenarios/bench.js";
import { floodStampLine } from "./scenarios/flood.js";
import { scenarios } from "./scenarios/index.js";

const logFile = frameLogFile();
const log = (message: string) => process.stderr.write(`mock-agent: ${message}\n`);

// Frames are read from and written to the pipes directly (@kandev/acp-stdio), in call order, so the
// raw lines of writeRaw below interleave with them but never split one. bench-elicit's times are
// taken there too, as its frames meet the pipes (scenarios/bench-wire.ts).
const floodLog = floodLogFile();
const wireStamps = new BenchWireStamps(benchNow, floodLog === undefined ? null : (stamp) => appendFileSync(floodLog, floodStampLine(stamp)));
let stream: acp.Stream = pipeStream(process.stdout, process.stdin, wireStamps);
if (logFile !== undefined) stream = tapStream(stream, logFile);

// Raw lines (the fuzz scenarios' junk) go to the same stdout as the SDK's frames, one whole line each.
const writeRaw = (line: string) =>
  new Promise<void>((resolve, reject) => {
    if (logFile !== undefined && logFile.length > 0) appendFileSync(logFile, rawLogLine(line));
    process.stdout.write(`${line}\n`, (err) => (err ? reject(err) : resolve()));
  });

// The start gate is polled (a test creates the file once; fs.watch misses a file made before it runs).
const gate = startGateFile();
const startGate =
  gate === undefined
    ? undefined
    : () =>
        new Promise<void>((resolve) => {
          const look = () => (existsSync(gate) ? resolve() : setTimeout(look, 50));
          look();
        });

const { app } = createMockAgent({
  scenarios,
  log,
  writeRaw,
  wireStamps,
  sessionState: sessionStateEnabled(),
  ...(startGate !== undefined && { startGate }),
});
const connection = app.connect(stream);
// The client closed our stdin (or the stream broke): nothing more can happen, so leave.
void connection.closed.then(() => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
