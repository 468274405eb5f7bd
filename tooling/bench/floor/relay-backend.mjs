// The floor's backend: one WebSocket client per relay agentctl (ports in argv[2] as a JSON array),
// a WebSocket server at /ws that fans every agentctl frame out to its clients unchanged, and
// `POST /r/<session>` whose body goes unchanged to that session's agentctl. Same libraries as the
// backend (node:http + ws, no compression); no database, no validation, no re-encoding.
// Prints {"event":"listening","port":N}; exits on SIGTERM or when its stdin closes (relay-process.mjs).
import http from "node:http";
import { WebSocketServer } from "ws";
import { connectAll, serve } from "./relay-process.mjs";

const ports = JSON.parse(process.argv[2] ?? "[]");
const browsers = new Set();
const upstream = await connectAll(ports);
for (const ws of upstream) {
  ws.on("message", (data, isBinary) => {
    for (const b of browsers) b.send(data, { binary: isBinary });
  });
}

const OK = '{"ok":true}';
const server = http.createServer((req, res) => {
  const target = req.method === "POST" && req.url?.startsWith("/r/") ? upstream[Number(req.url.slice(3))] : undefined;
  if (target === undefined) {
    res.writeHead(404).end();
    return;
  }
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    target.send(Buffer.concat(chunks), { binary: false });
    res.writeHead(200, { "content-type": "application/json", "content-length": OK.length }).end(OK);
  });
});
const wss = new WebSocketServer({ server, path: "/ws", perMessageDeflate: false });
wss.on("connection", (ws) => {
  browsers.add(ws);
  ws.on("close", () => browsers.delete(ws));
});
serve(server);
