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
    assert.deepEqual(tools.tools.map((t) => t.name), [KANDEV_TOOL_NAME]);
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
