import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { decideKandevTool, KandevToolHost, kandevMcpServer } from "./tool-host.js";

describe("decideKandevTool", () => {
  const http = { mcpCapabilities: { http: true } };
  test("absent config means enabled; offered when the agent advertises http MCP", () => {
    assert.deepEqual(decideKandevTool(undefined, http), { offer: true });
    assert.deepEqual(decideKandevTool({ enabled: true }, http), { offer: true });
  });
  test("{enabled: false} turns it off whatever the agent supports", () => {
    assert.deepEqual(decideKandevTool({ enabled: false }, http), { offer: false, reason: "disabled" });
  });
  test("no mcpCapabilities.http (absent, false, malformed) -> not offered", () => {
    for (const caps of [
      undefined,
      {},
      { mcpCapabilities: {} },
      { mcpCapabilities: { http: false, sse: true } },
      { mcpCapabilities: "http" },
      { mcpCapabilities: { http: "yes" } },
    ]) {
      assert.deepEqual(decideKandevTool(undefined, caps as Record<string, unknown> | undefined), { offer: false, reason: "agent_lacks_http_mcp" });
    }
  });
});

describe("KandevToolHost", () => {
  function host() {
    const logs: string[] = [];
    let starts = 0;
    let closes = 0;
    const h = new KandevToolHost({
      relay: async () => "x",
      log: (m) => logs.push(m),
      start: async () => {
        starts += 1;
        return {
          url: `http://127.0.0.1:1/mcp/secret${starts}`,
          close: async () => {
            closes += 1;
          },
        };
      },
    });
    return { h, logs, counts: () => ({ starts, closes }) };
  }

  test("starts the server once and returns the http entry for every session", async () => {
    const { h, counts } = host();
    const offer = { offer: true } as const;
    assert.deepEqual(await h.mcpServersFor(offer), [kandevMcpServer("http://127.0.0.1:1/mcp/secret1")]);
    assert.deepEqual(await h.mcpServersFor(offer), [{ type: "http", name: "kandev", url: "http://127.0.0.1:1/mcp/secret1", headers: [] }]);
    assert.deepEqual(counts(), { starts: 1, closes: 0 });
    await h.close();
    await h.close();
    assert.deepEqual(counts(), { starts: 1, closes: 1 });
    assert.deepEqual(await h.mcpServersFor(offer), [], "nothing offered after close");
  });

  test("not offered -> [] with the reason logged, and no server started", async () => {
    const { h, logs, counts } = host();
    assert.deepEqual(await h.mcpServersFor({ offer: false, reason: "disabled" }), []);
    assert.deepEqual(await h.mcpServersFor({ offer: false, reason: "agent_lacks_http_mcp" }), []);
    assert.match(logs[0] ?? "", /kandev_tool is disabled/);
    assert.match(logs[1] ?? "", /did not advertise mcpCapabilities\.http/);
    assert.equal(counts().starts, 0);
  });

  test("a server that fails to start surfaces the error and is retried next time", async () => {
    let attempt = 0;
    const h = new KandevToolHost({
      relay: async () => "x",
      log: () => {},
      start: async () => {
        attempt += 1;
        if (attempt === 1) throw new Error("EADDRINUSE");
        return { url: "http://127.0.0.1:2/mcp/s", close: async () => {} };
      },
    });
    await assert.rejects(h.mcpServersFor({ offer: true }), /EADDRINUSE/);
    assert.equal((await h.mcpServersFor({ offer: true }))[0]?.name, "kandev");
  });
});
