// connectAcp over in-memory pipes: elicitation/create goes through the ACP SDK's own request path
// (its JSON-RPC envelope, its $/cancel_request and close handling), with the raw params.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { connectAcp } from "./acp-client.js";

function agentPipes() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: unknown[] = [];
  let rest = "";
  stdin.on("data", (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") written.push(JSON.parse(line));
  });
  const send = (...messages: unknown[]) => stdout.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(""));
  return { stdin, stdout, written, send };
}

function connect(onElicitation: (params: unknown, signal: AbortSignal) => Promise<acp.CreateElicitationResponse>) {
  const pipes = agentPipes();
  const order: string[] = [];
  const link = connectAcp(pipes, {
    onSessionUpdate: () => order.push("session/update"),
    onPermission: () => Promise.reject(new Error("unused")),
    onElicitation: (params, signal) => {
      order.push("elicitation/create");
      return onElicitation(params, signal);
    },
    onActivity: () => {},
    log: () => {},
  });
  return { ...pipes, order, link };
}

async function waitFor(cond: () => boolean, what: string, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

const update = {
  jsonrpc: "2.0",
  method: "session/update",
  params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } } },
};
const create = (id: unknown, params: unknown) => ({ jsonrpc: "2.0", id, method: "elicitation/create", params });

describe("connectAcp: elicitation/create through the SDK", () => {
  test("is handled after the session/update read before it, with the raw params; the answer is the SDK's envelope", async () => {
    const c = connect(async () => ({ action: "decline" }));
    try {
      // One chunk: the update and a body the SDK's own schema would answer -32602 (AC-18).
      c.send(update, create(7, 42));
      await waitFor(() => c.written.length === 1, "the response");
      assert.deepEqual(c.order, ["session/update", "elicitation/create"]);
      assert.deepEqual(c.written, [{ jsonrpc: "2.0", id: 7, result: { action: "decline" } }]);
    } finally {
      c.link.connection.close();
    }
  });

  test("the agent's $/cancel_request aborts the handler's signal with -32800; the handler's answer still goes out", async () => {
    let signal: AbortSignal | undefined;
    const c = connect(
      (_params, s) =>
        new Promise((resolve) => {
          signal = s;
          s.addEventListener("abort", () => resolve({ action: "cancel" }), { once: true });
        }),
    );
    try {
      c.send(create("q1", { mode: "form" }));
      await waitFor(() => signal !== undefined, "the handler");
      c.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "q1" } });
      await waitFor(() => c.written.length === 1, "the response");
      const reason: unknown = signal!.reason;
      assert.ok(reason instanceof acp.RequestError && reason.code === -32800, String(reason));
      assert.deepEqual(c.written, [{ jsonrpc: "2.0", id: "q1", result: { action: "cancel" } }]);
    } finally {
      c.link.connection.close();
    }
  });

  test("the connection closing aborts an open request's signal (not with -32800)", async () => {
    let signal: AbortSignal | undefined;
    const c = connect((_params, s) => {
      signal = s;
      return new Promise(() => {});
    });
    c.send(create(1, { mode: "form" }));
    await waitFor(() => signal !== undefined, "the handler");
    c.stdout.end();
    await waitFor(() => signal!.aborted, "the abort");
    const reason = signal!.reason as { code?: unknown } | undefined;
    assert.notEqual(reason?.code, -32800);
  });
});
