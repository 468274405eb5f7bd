// The lean board's backend (`npm run bench -- --lean`): the floor's relay backend doing the least
// any board must on a question. It parses and checks each agentctl event; writes the question
// durably before its one push (a message row and a clarification row in one transaction, WAL,
// synchronous = NORMAL, as the board's database); records an answer before forwarding it, and the
// settle when agentctl reports it. Checkpoints as the board's: SQLite's automatic one, at its
// default of 1,000 pages, and `journal_size_limit` (apps/backend/src/db/client.ts). No zod, no
// drizzle, no task state, no notification, no settle push
// (see "A lean board beside the product" in docs/BENCHMARKS.md (the notes: `git log -- docs/benchmarks`)).
// argv: [ports as a JSON array, a directory for its database]. Prints {"event":"listening","port":N};
// exits on SIGTERM or when its stdin closes.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { WebSocketServer } from "ws";
import { connectAll, serve } from "./relay-process.mjs";

const ports = JSON.parse(process.argv[2] ?? "[]");
const dir = fs.mkdtempSync(path.join(process.argv[3] ?? ".", "lean-board-"));
const file = path.join(dir, "lean.db");
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.pragma("journal_size_limit = 268435456");
db.exec(`CREATE TABLE messages (id INTEGER PRIMARY KEY, uid TEXT NOT NULL UNIQUE, session TEXT NOT NULL, created_at TEXT NOT NULL, body TEXT NOT NULL, requests_input INTEGER NOT NULL);
CREATE INDEX messages_session ON messages (session, id);
CREATE TABLE clarifications (pending_id TEXT PRIMARY KEY, session TEXT NOT NULL, message_id INTEGER NOT NULL, status TEXT NOT NULL, answer TEXT);
CREATE INDEX clarifications_session_status ON clarifications (session, status);`);
const insertMessage = db.prepare("INSERT INTO messages (uid, session, created_at, body, requests_input) VALUES (?, ?, ?, ?, 1)");
const insertClarification = db.prepare("INSERT INTO clarifications (pending_id, session, message_id, status) VALUES (?, ?, ?, 'pending')");
const answerClarification = db.prepare("UPDATE clarifications SET status = 'answered', answer = ? WHERE pending_id = ? AND status = 'pending'");
const settleMessage = db.prepare("UPDATE messages SET requests_input = 0 WHERE id = (SELECT message_id FROM clarifications WHERE pending_id = ?)");
const record = db.transaction((p) => {
  const uid = randomUUID();
  const createdAt = new Date().toISOString();
  const { lastInsertRowid } = insertMessage.run(uid, p.session_id, createdAt, JSON.stringify({ message: p.message, questions: p.questions }));
  insertClarification.run(p.pending_id, p.session_id, lastInsertRowid);
  return {
    id: uid,
    session_id: p.session_id,
    created_at: createdAt,
    type: "clarification_request",
    requests_input: true,
    metadata: { pending_id: p.pending_id, questions: p.questions },
  };
});
const answer = db.transaction((pendingId, text) => answerClarification.run(text, pendingId).changes === 1);
const settle = db.transaction((pendingId) => settleMessage.run(pendingId));

function fail(why) {
  process.stderr.write(`lean backend: ${why}\n`);
  process.exit(1);
}

const browsers = new Set();
const open = new Map();
const push = (text) => {
  for (const b of browsers) b.send(text);
};
const upstream = await connectAll(ports);
upstream.forEach((ws, s) => {
  ws.on("message", (data) => {
    const ev = JSON.parse(data.toString());
    if (ev.type !== "event" || typeof ev.name !== "string" || typeof ev.payload !== "object" || ev.payload === null)
      fail(`not an event: ${data.toString().slice(0, 200)}`);
    const p = ev.payload;
    if (ev.name === "turn.ended") return push(JSON.stringify(p));
    if (ev.name === "elicitation.settled") return void settle(p.pending_id);
    if (ev.name !== "elicitation.requested" || typeof p.pending_id !== "string" || !Array.isArray(p.questions))
      fail(`an unknown event: ${data.toString().slice(0, 200)}`);
    const message = record(p);
    open.set(s, p.pending_id);
    // The floor's operator reads the bench numbers at the top level (wire.ts, parseFloorLine).
    const b = p.bench;
    push(
      JSON.stringify({
        s: b.s,
        seq: b.seq,
        sent_at: b.sent_at,
        prev: b.prev,
        type: "notification",
        action: "session.message.added",
        payload: message,
      }),
    );
  });
});

const OK = '{"ok":true}';
const server = http.createServer((req, res) => {
  const s = req.method === "POST" && req.url?.startsWith("/r/") ? Number(req.url.slice(3)) : NaN;
  const target = upstream[s];
  if (target === undefined) return void res.writeHead(404).end();
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const text = Buffer.concat(chunks).toString();
    const body = JSON.parse(text);
    if (typeof body.start !== "number") {
      if (!Array.isArray(body.answers)) return void res.writeHead(400).end();
      const pendingId = open.get(s);
      if (pendingId === undefined || !answer(pendingId, text)) return void res.writeHead(409).end();
      open.delete(s);
    }
    target.send(text);
    res.writeHead(200, { "content-type": "application/json", "content-length": OK.length }).end(OK);
  });
});
const wss = new WebSocketServer({ server, path: "/ws", perMessageDeflate: false });
wss.on("connection", (ws) => {
  browsers.add(ws);
  ws.on("close", () => browsers.delete(ws));
});
serve(server, () => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
