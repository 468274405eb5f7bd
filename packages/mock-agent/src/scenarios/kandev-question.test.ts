// The kandev-question scenarios against an in-process ACP client and a real streamable-HTTP MCP
// server on loopback (real SDKs, no agentctl). End to end with agentctl lives in
// packages/agentctl/test/ask-tool.test.ts.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as acp from "@agentclientprotocol/sdk";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { createMockAgent } from "../agent.js";
import {
  findKandevServer,
  kandevQuestionScenarios,
  KANDEV_TOOL,
  ONE_QUESTION,
  parseKandevRest,
  THREE_QUESTIONS,
  toolResultText,
} from "./kandev-question.js";

type ToolHandler = (args: unknown, signal: AbortSignal) => Promise<{ text: string; isError?: boolean }>;

/** A stateless MCP server offering KANDEV_TOOL, recording the arguments and headers of each call. */
async function startToolServer(handler: ToolHandler) {
  const calls: { args: unknown; headers: IncomingHttpHeaders }[] = [];
  const http: Server = createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405).end(); // stateless: no GET stream, no DELETE
      return;
    }
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const mcp = new McpServer({ name: "kandev-test", version: "0" });
      mcp.registerTool(KANDEV_TOOL, { inputSchema: { questions: z.array(z.unknown()) } }, async (args, extra) => {
        calls.push({ args, headers: req.headers });
        const r = await handler(args, extra.signal);
        return { isError: r.isError === true, content: [{ type: "text" as const, text: r.text }] };
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => void mcp.close());
      await mcp.connect(transport);
      await transport.handleRequest(req, res, body);
    })();
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const close = () => new Promise<void>((r) => (http.closeAllConnections(), http.close(() => r())));
  return { url, calls, close };
}

/** Runs one prompt against the mock agent with these `mcpServers`; `duringTurn` may cancel. */
async function play(
  prompt: string,
  mcpServers: acp.McpServer[],
  duringTurn?: (ctx: acp.ClientContext, sessionId: string, textArrived: (part: string) => Promise<void>) => Promise<void>,
) {
  const { app, state } = createMockAgent({ scenarios: kandevQuestionScenarios });
  const text: string[] = [];
  const tools: acp.SessionUpdate[] = [];
  const textWaiters: Array<{ part: string; resolve: () => void }> = [];
  const textArrived = (part: string) =>
    text.some((t) => t.includes(part)) ? Promise.resolve() : new Promise<void>((resolve) => textWaiters.push({ part, resolve }));
  const client = acp.client({ name: "scripted" }).onNotification(acp.methods.client.session.update, ({ params }) => {
    if (params.update.sessionUpdate === "agent_message_chunk" && params.update.content.type === "text") {
      const chunk = params.update.content.text;
      text.push(chunk);
      for (const w of textWaiters) if (chunk.includes(w.part)) w.resolve();
    }
    if (params.update.sessionUpdate === "tool_call" || params.update.sessionUpdate === "tool_call_update") tools.push(params.update);
  });
  const out = await client.connectWith(app, async (ctx) => {
    await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
    const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: "/", mcpServers });
    const turn = ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: prompt }] });
    if (duringTurn !== undefined) await duringTurn(ctx, sessionId, textArrived);
    return { stopReason: (await turn).stopReason, sessionId };
  });
  return { ...out, text, tools, state };
}

const servers: Array<{ close: () => Promise<void> }> = [];
after(async () => {
  for (const s of servers) await s.close();
});

function httpServer(url: string, headers: acp.HttpHeader[] = []): acp.McpServer {
  return { type: "http", name: "kandev", url, headers };
}

describe("kandev-question scenario helpers", () => {
  test("parseKandevRest: defaults, wait-signal, JSON arguments, both", () => {
    assert.deepEqual(parseKandevRest("", ONE_QUESTION), { waitSignal: false, args: ONE_QUESTION });
    assert.deepEqual(parseKandevRest("wait-signal", ONE_QUESTION), { waitSignal: true, args: ONE_QUESTION });
    assert.deepEqual(parseKandevRest('{"questions":[]}', ONE_QUESTION), { waitSignal: false, args: { questions: [] } });
    assert.deepEqual(parseKandevRest(' wait-signal {"a":1} ', ONE_QUESTION), { waitSignal: true, args: { a: 1 } });
    assert.throws(() => parseKandevRest("{nope", ONE_QUESTION), SyntaxError);
  });

  test("findKandevServer takes only an http server named kandev, with its headers", () => {
    const stdio: acp.McpServer = { name: "kandev", command: "x", args: [], env: [] };
    const other: acp.McpServer = { type: "http", name: "other", url: "http://a/other", headers: [] };
    assert.equal(findKandevServer([stdio, other]), null);
    assert.deepEqual(findKandevServer([stdio, httpServer("http://a/mcp", [{ name: "x-k", value: "v" }])]), {
      url: "http://a/mcp",
      headers: { "x-k": "v" },
    });
  });

  test("toolResultText joins text blocks and ignores others", () => {
    assert.equal(
      toolResultText({
        content: [
          { type: "text", text: "a" },
          { type: "image", data: "" },
          { type: "text", text: "b" },
        ],
      }),
      "a\nb",
    );
    assert.equal(toolResultText({}), "");
  });
});

describe("kandev-question scenarios over a real MCP server", () => {
  test("kandev-question calls the tool with one 2-option question and reports its text", async () => {
    const server = await startToolServer(async () => ({ text: "The operator chose Postgres." }));
    servers.push(server);
    const r = await play("/e2e:kandev-question", [httpServer(server.url, [{ name: "x-probe", value: "yes" }])]);
    assert.equal(r.stopReason, "end_turn");
    assert.deepEqual(r.text, ["kandev tool result: The operator chose Postgres."]);
    assert.equal(server.calls.length, 1);
    assert.deepEqual(server.calls[0]?.args, ONE_QUESTION);
    assert.equal(server.calls[0]?.headers["x-probe"], "yes");
    assert.deepEqual(
      r.tools.map((u) => [u.sessionUpdate, "status" in u ? u.status : undefined]),
      [
        ["tool_call", "in_progress"],
        ["tool_call_update", "completed"],
      ],
    );
    assert.deepEqual(r.state.mcpServers.get(r.sessionId), [httpServer(server.url, [{ name: "x-probe", value: "yes" }])]);
  });

  test("kandev-question-multi sends the 3-question bundle", async () => {
    const server = await startToolServer(async () => ({ text: "answers" }));
    servers.push(server);
    const r = await play("/e2e:kandev-question-multi", [httpServer(server.url)]);
    assert.deepEqual(server.calls[0]?.args, THREE_QUESTIONS);
    assert.equal((server.calls[0]?.args as { questions: unknown[] } | undefined)?.questions.length, 3);
    assert.deepEqual(r.text, ["kandev tool result: answers"]);
  });

  test("a tool error result is reported as a kandev tool error and the turn ends normally", async () => {
    const server = await startToolServer(async () => ({ text: "The question could not be asked: nope", isError: true }));
    servers.push(server);
    const r = await play("/e2e:kandev-question", [httpServer(server.url)]);
    assert.equal(r.stopReason, "end_turn");
    assert.deepEqual(r.text, ["kandev tool error: The question could not be asked: nope"]);
    assert.equal((r.tools[1] as { status?: string }).status, "failed");
  });

  test("no kandev server in session/new -> a clear error, no call, end_turn", async () => {
    const r = await play("/e2e:kandev-question", []);
    assert.equal(r.stopReason, "end_turn");
    assert.deepEqual(r.text, ['kandev tool error: no "kandev" http MCP server in session/new']);
  });

  test("an unreachable server is a kandev tool error, not a crash", async () => {
    const server = await startToolServer(async () => ({ text: "x" }));
    await server.close();
    const r = await play("/e2e:kandev-question", [httpServer(server.url)]);
    assert.equal(r.stopReason, "end_turn");
    assert.match(r.text[0] ?? "", /^kandev tool error: /);
  });

  test("wait-signal holds the call until SIGUSR2 arrives, then calls", async () => {
    const server = await startToolServer(async () => ({ text: "after the gate" }));
    servers.push(server);
    const r = await play("/e2e:kandev-question wait-signal", [httpServer(server.url)], async (_ctx, _sid, textArrived) => {
      await textArrived("waiting for SIGUSR2");
      assert.equal(server.calls.length, 0, "no call before the signal");
      process.kill(process.pid, "SIGUSR2");
    });
    assert.equal(r.stopReason, "end_turn");
    assert.deepEqual(r.text, ["kandev tool: waiting for SIGUSR2\n", "kandev tool result: after the gate"]);
    assert.equal(process.listenerCount("SIGUSR2"), 0, "the gate removed its handler");
  });

  test("JSON after the name replaces the arguments (invalid ones reach the server as sent)", async () => {
    const server = await startToolServer(async () => ({ text: "ok" }));
    servers.push(server);
    const args = { questions: [{ prompt: "one option", options: [{ label: "a" }] }] };
    await play(`/e2e:kandev-question ${JSON.stringify(args)}`, [httpServer(server.url)]);
    assert.deepEqual(server.calls[0]?.args, args);
  });

  test("session/cancel during the call ends the turn cancelled and closes the HTTP request", async () => {
    let reached!: () => void;
    const atServer = new Promise<void>((r) => (reached = r));
    let serverSawAbort!: () => void;
    const aborted = new Promise<void>((r) => (serverSawAbort = r));
    const server = await startToolServer(
      (_args, signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => (serverSawAbort(), resolve({ text: "too late" })), { once: true });
          reached();
        }),
    );
    servers.push(server);
    const r = await play("/e2e:kandev-question", [httpServer(server.url)], async (ctx, sessionId) => {
      await atServer;
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
    });
    assert.equal(r.stopReason, "cancelled");
    await aborted;
    assert.deepEqual(r.text, []);
  });
});
