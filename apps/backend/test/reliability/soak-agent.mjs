// A minimal ACP agent for the soak (docs/RELIABILITY.md §4): plain ndjson over stdio, no SDK, so a
// hundred of them start in seconds on two cores. Each prompt turn asks one single-select question
// (elicitation/create, choice "go" or "stop"), and asks again as soon as it is answered "go"; the
// turn ends when it is answered "stop", declined or cancelled, or on session/cancel.
import readline from "node:readline";

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
let nextId = 1;
let sessionId = null;
let turn = null; // { promptId, asked }

function ask() {
  turn.asked += 1;
  const id = nextId++;
  turn.pending = id;
  send({
    jsonrpc: "2.0",
    id,
    method: "elicitation/create",
    params: {
      mode: "form",
      sessionId,
      message: `soak question ${turn.asked}`,
      requestedSchema: {
        type: "object",
        properties: {
          choice: {
            type: "string",
            title: "Go on?",
            oneOf: [
              { const: "go", title: "Go" },
              { const: "stop", title: "Stop" },
            ],
          },
        },
      },
    },
  });
}

function endTurn(stopReason) {
  if (turn === null) return;
  send({ jsonrpc: "2.0", id: turn.promptId, result: { stopReason } });
  turn = null;
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.method === "initialize") send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: 1, agentCapabilities: {} } });
  else if (msg.method === "session/new") {
    sessionId = `soak-${process.pid}`;
    send({ jsonrpc: "2.0", id: msg.id, result: { sessionId } });
  } else if (msg.method === "session/prompt") {
    turn = { promptId: msg.id, asked: 0, pending: null };
    ask();
  } else if (msg.method === "session/cancel") endTurn("cancelled");
  else if (msg.method === undefined && turn !== null && msg.id === turn.pending) {
    const r = msg.result ?? {};
    if (r.action === "accept" && r.content?.choice === "go") ask();
    else endTurn(r.action === "cancel" ? "cancelled" : "end_turn");
  }
});
process.stdin.on("end", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
