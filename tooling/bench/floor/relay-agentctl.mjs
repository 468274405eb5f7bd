// The floor's agentctl: spawns the relay agent (argv[3], default relay-agent.mjs) with stdio pipes and relays, byte for byte, each
// stdout line to its one WebSocket client and each WebSocket frame to the agent's stdin. Same
// libraries as agentctl (node:http + ws, no compression); no auth, no parsing, no validation.
// Prints {"event":"listening","port":N}; exits on SIGTERM or when its stdin closes (relay-process.mjs).
import { spawn } from "node:child_process";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { WebSocketServer } from "ws";
import { serve } from "./relay-process.mjs";

const session = process.argv[2] ?? "0";
// The question pass's relay agent, or the streaming pass's (flood-agent.mjs), by file name.
const agentFile = process.argv[3] ?? "relay-agent.mjs";
const agent = spawn(process.execPath, [fileURLToPath(new URL(`./${agentFile}`, import.meta.url)), session], {
  stdio: ["pipe", "pipe", "inherit"],
});
const NL = Buffer.from("\n");
let client = null;
let pending = "";

agent.stdout.setEncoding("utf8");
agent.stdout.on("data", (chunk) => {
  pending += chunk;
  for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
    const line = pending.slice(0, i);
    pending = pending.slice(i + 1);
    client?.send(line);
  }
});

const server = http.createServer((_req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({ server, perMessageDeflate: false });
wss.on("connection", (ws) => {
  client = ws;
  ws.on("message", (data) => agent.stdin.write(Buffer.concat([data, NL])));
});
serve(server, () => agent.kill("SIGTERM"));
