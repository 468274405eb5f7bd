// The lean board's agentctl (`npm run bench -- --lean`): the floor's relay agentctl doing the least
// any board's agentctl must on a question. It parses each agent line, checks it, and sends an
// `elicitation.requested`-like event with a pending id of its own; for an answer, it parses the
// frame, writes the agent's reply, then sends a settled event. No ACP envelope, no schema mapping,
// no zod (see "A lean board beside the product" in docs/BENCHMARKS.md (the notes: `git log -- docs/benchmarks`)).
// Prints {"event":"listening","port":N}; exits on SIGTERM or when its stdin closes (relay-process.mjs).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { WebSocketServer } from "ws";
import { serve } from "./relay-process.mjs";

const session = process.argv[2] ?? "0";
const agent = spawn(process.execPath, [fileURLToPath(new URL("./relay-agent.mjs", import.meta.url)), session], {
  stdio: ["pipe", "pipe", "inherit"],
});
let client = null;
let pending = "";
let open = null;

function fail(why) {
  process.stderr.write(`lean agentctl ${session}: ${why}\n`);
  process.exit(1);
}

function onAgentLine(line) {
  const msg = JSON.parse(line);
  if (typeof msg.s !== "number") fail(`a line without a session: ${line.slice(0, 200)}`);
  if (msg.done === true) {
    client?.send(JSON.stringify({ type: "event", name: "turn.ended", payload: msg }));
    return;
  }
  if (typeof msg.seq !== "number" || typeof msg.sent_at !== "number") fail(`an ask without seq or sent_at: ${line.slice(0, 200)}`);
  open = randomUUID();
  const question = {
    id: "choice",
    title: "Choice",
    prompt: "Pick one.",
    options: [
      { id: "a", label: "A" },
      { id: "b", label: "B" },
    ],
    multi: false,
  };
  const payload = { pending_id: open, session_id: `s-${session}`, mode: "form", message: `bench seq=${msg.seq}`, questions: [question], bench: msg };
  client?.send(JSON.stringify({ type: "event", name: "elicitation.requested", payload }));
}

agent.stdout.setEncoding("utf8");
agent.stdout.on("data", (chunk) => {
  pending += chunk;
  for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
    const line = pending.slice(0, i);
    pending = pending.slice(i + 1);
    onAgentLine(line);
  }
});

const server = http.createServer((_req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({ server, perMessageDeflate: false });
wss.on("connection", (ws) => {
  client = ws;
  ws.on("message", (data) => {
    const msg = JSON.parse(data.toString());
    if (typeof msg.start === "number") {
      agent.stdin.write(`${JSON.stringify(msg)}\n`);
      return;
    }
    if (!Array.isArray(msg.answers) || open === null) fail(`an answer with nothing to answer: ${data.toString().slice(0, 200)}`);
    const id = open;
    open = null;
    const choice = msg.answers[0]?.selected_options?.[0];
    agent.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { action: "accept", content: { choice } } })}\n`);
    ws.send(JSON.stringify({ type: "event", name: "elicitation.settled", payload: { pending_id: id, outcome: "accept", reason: "operator" } }));
  });
});
serve(server, () => agent.kill("SIGTERM"));
