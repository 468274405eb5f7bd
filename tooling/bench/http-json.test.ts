import assert from "node:assert/strict";
import net from "node:net";
import { describe, it } from "node:test";
import { JsonClient, describeReply, expectStatus } from "./http-json.js";

/**
 * A keep-alive HTTP server that answers the first request of each connection and closes the
 * connection on any later one without answering, as a server does with a socket it timed out
 * while the client was sending on it.
 */
async function oneRequestPerSocketServer(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    let served = false;
    socket.on("data", () => {
      if (served) return void socket.destroy();
      served = true;
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: keep-alive\r\n\r\n{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}`, connections: () => connections, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("bench HTTP client and its replies in error messages", () => {
  it("an empty body (a reply with no content) is named, not a crash", () => {
    assert.equal(describeReply({ status: 503, body: undefined }), "HTTP 503 (empty body)");
  });

  it("a JSON body is shown, cut at the limit", () => {
    assert.equal(describeReply({ status: 409, body: { code: "ALREADY_ANSWERED" } }), 'HTTP 409 {"code":"ALREADY_ANSWERED"}');
    assert.equal(describeReply({ status: 500, body: "x".repeat(50) }, 10), `HTTP 500 "${"x".repeat(9)}`);
  });

  it("expectStatus returns the body on the expected status and throws with the reply otherwise", () => {
    assert.deepEqual(expectStatus({ status: 200, body: { ok: true } }, 200, "answer"), { ok: true });
    assert.throws(() => expectStatus({ status: 404, body: undefined }, 200, "answer c1"), /^Error: answer c1: HTTP 404 \(empty body\)$/);
  });

  it("a request on a socket the server closed is retried on a new connection, even with more stale sockets pooled", async () => {
    const server = await oneRequestPerSocketServer();
    const client = new JsonClient(server.url);
    try {
      // Two sockets in the pool, each already used once (the next request on either is dropped).
      const first = await Promise.all([client.get("/a"), client.get("/b")]);
      assert.deepEqual(
        first.map((r) => r.status),
        [200, 200],
      );
      assert.equal(server.connections(), 2);
      const reply = await client.get("/c");
      assert.deepEqual([reply.status, reply.body], [200, { ok: true }]);
      assert.equal(server.connections(), 3, "the retry opened a new connection");
    } finally {
      client.close();
      await server.close();
    }
  });
});
