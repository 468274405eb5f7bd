// The backend's agent-stream transport against a server that behaves like agentctl on a
// (re)connect: it flushes its buffered events the instant it accepts the socket, so they arrive in
// the same TCP read as the 101 response. None may be lost (docs/RELIABILITY.md §2, stream drop).
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import { AgentStreamTransport } from "../../src/agentctl/transport.js";
import { silentLogger } from "../../src/logger.js";
import { eventually } from "../helpers.js";

describe("agent-stream transport (in-process server)", () => {
  const servers: http.Server[] = [];
  after(() => {
    for (const s of servers) s.close();
  });

  test("events flushed in the same write as the upgrade are all delivered, in order, on every reconnect", async () => {
    const http1 = http.createServer();
    servers.push(http1);
    const wss = new WebSocketServer({ noServer: true });
    let connection = 0;
    http1.on("upgrade", (req, socket, head) =>
      wss.handleUpgrade(req, socket, head, (ws) => {
        connection += 1;
        // Like agentctl's adopt(): the buffer goes out synchronously, before anything else.
        for (let i = 0; i < 50; i++) ws.send(`${connection}:${i}`);
      }),
    );
    await new Promise<void>((r) => http1.listen(0, "127.0.0.1", () => r()));
    const port = (http1.address() as AddressInfo).port;
    const frames: string[] = [];
    const transport = new AgentStreamTransport({
      url: `ws://127.0.0.1:${port}/`,
      token: "t",
      logger: silentLogger,
      shouldReconnect: () => true,
      onFrame: (text) => frames.push(text),
      onDisconnect: () => undefined,
      onReconnect: () => undefined,
      backoff: { initialMs: 10, maxMs: 50, maxAttempts: 5 },
    });
    try {
      await transport.connect();
      for (let round = 1; round <= 10; round++) {
        await eventually(() => (frames.filter((f) => f.startsWith(`${round}:`)).length === 50 ? true : undefined), `round ${round}: 50 frames`, 5_000);
        transport.suspend();
        await transport.resume();
      }
      for (let round = 1; round <= 10; round++) {
        assert.deepEqual(
          frames.filter((f) => f.startsWith(`${round}:`)),
          Array.from({ length: 50 }, (_, i) => `${round}:${i}`),
          `round ${round} complete and in order`,
        );
      }
    } finally {
      transport.close();
      wss.close();
    }
  });
});
