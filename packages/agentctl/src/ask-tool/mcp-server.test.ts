import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { KANDEV_TOOL_NAME } from "@kandev/protocol";
import { startKandevToolServer, type KandevToolServer } from "./mcp-server.js";

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe("ask_user_question_kandev MCP server", () => {
  const servers: KandevToolServer[] = [];
  after(async () => {
    for (const s of servers) await s.close();
  });

  test("lists the tool and relays a call's arguments, returning the relay's text", async () => {
    const seen: unknown[] = [];
    const server = await startKandevToolServer({
      relay: async (args) => {
        seen.push(args);
        return "The user answered: Postgres";
      },
    });
    servers.push(server);
    const client = await connect(server.url);
    const tools = await client.listTools();
    assert.deepEqual(
      tools.tools.map((t) => t.name),
      [KANDEV_TOOL_NAME],
    );
    const args = { questions: [{ prompt: "Which DB?", options: [{ label: "Postgres" }, { label: "SQLite" }] }] };
    const result = await client.callTool({ name: KANDEV_TOOL_NAME, arguments: args });
    assert.deepEqual(result.content, [{ type: "text", text: "The user answered: Postgres" }]);
    assert.deepEqual(seen, [args]);
    await client.close();
  });

  test("input outside the tool's rules is refused before it reaches the backend", async () => {
    let calls = 0;
    const server = await startKandevToolServer({ relay: async () => (calls++, "x") });
    servers.push(server);
    const client = await connect(server.url);
    const result = await client.callTool({
      name: KANDEV_TOOL_NAME,
      arguments: { questions: [{ prompt: "one option only", options: [{ label: "a" }] }] },
    });
    assert.equal(result.isError, true);
    assert.equal(calls, 0);
    await client.close();
  });

  test("a failing relay becomes a tool error the agent can read", async () => {
    const server = await startKandevToolServer({
      relay: async () => {
        throw new Error("agent stream not connected");
      },
    });
    servers.push(server);
    const client = await connect(server.url);
    const result = await client.callTool({
      name: KANDEV_TOOL_NAME,
      arguments: { questions: [{ prompt: "p", options: [{ label: "a" }, { label: "b" }] }] },
    });
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /agent stream not connected/);
    await client.close();
  });

  test("a wrong path is 404 and a malformed body is 400, nothing relayed", async () => {
    let calls = 0;
    const server = await startKandevToolServer({ relay: async () => (calls++, "x") });
    servers.push(server);
    const base = new URL(server.url);
    const wrong = await fetch(`${base.origin}/mcp/guess`, { method: "POST", body: "{}" });
    assert.equal(wrong.status, 404);
    const bad = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{not json",
    });
    assert.equal(bad.status, 400);
    assert.equal(calls, 0);
  });
});

describe("long operator waits", () => {
  test("headers arrive before the answer and keep-alives flow while the operator thinks", async () => {
    let release: (text: string) => void = () => {};
    const server = await startKandevToolServer({ relay: () => new Promise<string>((r) => (release = r)), keepAliveMs: 20 });
    try {
      const body = {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: KANDEV_TOOL_NAME, arguments: { questions: [{ prompt: "p", options: [{ label: "a" }, { label: "b" }] }] } },
      };
      const res = await fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      });
      // The fetch resolved while the relay is still waiting: headers did not wait for the answer.
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
      const reader = res.body!.getReader();
      let seen = "";
      while (!seen.includes(": keepalive")) {
        const chunk = await reader.read();
        assert.equal(chunk.done, false, "stream ended before any keep-alive");
        seen += new TextDecoder().decode(chunk.value);
      }
      release("The user answered: a");
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        seen += new TextDecoder().decode(chunk.value);
      }
      const text = seen;
      assert.match(text, /The user answered: a/);
    } finally {
      await server.close();
    }
  });
});
