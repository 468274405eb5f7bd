import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { MAX_BODY_BYTES } from "@kandev/protocol";
import { readJsonBody } from "./body.js";
import { toErrorReply } from "./errors.js";

// A real HTTP server around readJsonBody, so the limit is tested over a socket as clients see it.
describe("readJsonBody", () => {
  let server: http.Server;
  let url: string;
  before(async () => {
    server = http.createServer((req, res) => {
      readJsonBody(req).then(
        (body) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ body: body ?? null })),
        (err: unknown) => {
          const r = toErrorReply(err);
          res.writeHead(r.status, { "content-type": "application/json" }).end(JSON.stringify(r.body));
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("parses JSON", async () => {
    const res = await fetch(url, { method: "POST", body: JSON.stringify({ a: [1, "ü"] }) });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { body: { a: [1, "ü"] } });
  });

  test("an empty body reads as undefined", async () => {
    const res = await fetch(url, { method: "POST" });
    assert.deepEqual(await res.json(), { body: null });
  });

  test("malformed JSON is 400 BAD_REQUEST", async () => {
    const res = await fetch(url, { method: "POST", body: "{nope" });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, "BAD_REQUEST");
  });

  test("exactly 1 MiB is accepted", async () => {
    const body = JSON.stringify({ s: "x".repeat(MAX_BODY_BYTES - 8) });
    assert.equal(Buffer.byteLength(body), MAX_BODY_BYTES);
    const res = await fetch(url, { method: "POST", body });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });

  test("over 1 MiB is 413 PAYLOAD_TOO_LARGE", async () => {
    const res = await fetch(url, { method: "POST", body: JSON.stringify({ s: "x".repeat(MAX_BODY_BYTES) }) });
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, "PAYLOAD_TOO_LARGE");
  });

  test("over 1 MiB without Content-Length (chunked) is 413 too", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_BODY_BYTES + chunk.length) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(url, { method: "POST", body: stream, duplex: "half" } as RequestInit);
    assert.equal(res.status, 413);
    await res.arrayBuffer();
  });
});
