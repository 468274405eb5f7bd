// The streaming floor's agent: on a line {"flood": <chunks>, "size": <size>} it writes <chunks>
// ACP `session/update` agent_message_chunk lines, the mock agent's /e2e:flood chunks exactly
// (floodChunk), as fast as the pipe takes them, then one line
//   {"s": <session>, "done": true, "last_chunk_at": ms}
// with the time it wrote the last chunk (performance.timeOrigin + performance.now(), as the mock
// agent's MOCK_AGENT_FLOOD_LOG). No SDK, no validation: the agent end of the floor's hops.
import { once } from "node:events";
import { createInterface } from "node:readline";
import { floodChunk } from "@kandev/mock-agent";

const session = Number(process.argv[2]);
const sessionId = `floor-${session}`;
const now = () => performance.timeOrigin + performance.now();

async function flood(chunks, size) {
  for (let i = 0; i < chunks; i++) {
    const update = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: floodChunk(i, size) } };
    const line = `${JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update } })}\n`;
    if (!process.stdout.write(line)) await once(process.stdout, "drain");
  }
  const lastChunkAt = now();
  process.stdout.write(`${JSON.stringify({ s: session, done: true, last_chunk_at: lastChunkAt })}\n`);
}

const lines = createInterface({ input: process.stdin });
let turn = Promise.resolve();
lines.on("line", (line) => {
  const { flood: chunks, size } = JSON.parse(line);
  turn = turn.then(() => flood(chunks, size));
});
lines.on("close", () => process.exit(0));
