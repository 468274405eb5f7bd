import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import WebSocket from "ws";
import { MAX_BODY_BYTES } from "@kandev/protocol";
import { WsClient, api, eventually, startTestServer, tempDir } from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;
type ErrorBody = { error: { code: string; message: string; details?: Array<{ path: string; message: string }> } };

describe("HTTP and WebSocket guards", () => {
  let server: Server;
  let base: string;
  let host: string;
  before(async () => {
    server = await startTestServer({ allowedOrigins: ["http://localhost:3000"] });
    base = server.url;
    host = new URL(base).host;
  });
  after(async () => {
    await server?.close();
  });

  test("health answers 200 with the version", async () => {
    const r = await api(base, "GET", "/api/v1/health");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: "ok", version: "0.1.0", auth: { enabled: false, setup_required: false } });
  });

  test("malformed JSON is 400 BAD_REQUEST", async () => {
    const r = await api<ErrorBody>(base, "POST", "/api/v1/tasks", "{not json");
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, "BAD_REQUEST");
  });

  test("a schema-invalid body is 400 VALIDATION_ERROR listing each problem", async () => {
    const r = await api<ErrorBody>(base, "POST", "/api/v1/tasks", { title: "", prompt: 5 });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, "VALIDATION_ERROR");
    assert.deepEqual(r.body.error.details!.map((d) => d.path).sort(), ["prompt", "title"]);
    const empty = await api<ErrorBody>(base, "POST", "/api/v1/tasks");
    assert.equal(empty.body.error.code, "VALIDATION_ERROR");
  });

  test("a body over 1 MiB is 413 PAYLOAD_TOO_LARGE and nothing is created", async () => {
    const before = (await api<unknown[]>(base, "GET", "/api/v1/tasks")).body.length;
    const r = await api<ErrorBody>(base, "POST", "/api/v1/tasks", { title: "big", prompt: "x".repeat(MAX_BODY_BYTES) });
    assert.equal(r.status, 413);
    assert.equal(r.body.error.code, "PAYLOAD_TOO_LARGE");
    assert.equal((await api<unknown[]>(base, "GET", "/api/v1/tasks")).body.length, before);
  });

  test("a state-changing request from a foreign Origin is 403 FORBIDDEN_ORIGIN; reads are not blocked", async () => {
    const r = await api<ErrorBody>(base, "POST", "/api/v1/agent-profiles", { name: "x", command: ["x"] }, { origin: "http://evil.example" });
    assert.equal(r.status, 403);
    assert.equal(r.body.error.code, "FORBIDDEN_ORIGIN");
    const patch = await api<ErrorBody>(
      base,
      "PATCH",
      "/api/v1/runtime-flags/features.acpElicitation",
      { value: true },
      { origin: "http://evil.example" },
    );
    assert.equal(patch.status, 403);
    const flags = await api<Array<{ override: boolean | null }>>(base, "GET", "/api/v1/runtime-flags");
    assert.equal(flags.body[0]!.override, null, "the refused PATCH stored nothing");
    const read = await api(base, "GET", "/api/v1/health", undefined, { origin: "http://evil.example" });
    assert.equal(read.status, 200);
  });

  test("same-origin and listed origins may change state", async () => {
    const same = await api(base, "POST", "/api/v1/agent-profiles", { name: "same", command: ["x"] }, { origin: `http://${host}` });
    assert.equal(same.status, 201);
    const listed = await api(base, "POST", "/api/v1/agent-profiles", { name: "listed", command: ["x"] }, { origin: "http://localhost:3000" });
    assert.equal(listed.status, 201);
  });

  test("every answer carries a CSP and the other security headers", async () => {
    for (const p of ["/api/v1/health", "/api/v1/nope", "/some/page"]) {
      const res = await fetch(`${base}${p}`);
      await res.arrayBuffer();
      assert.match(res.headers.get("content-security-policy") ?? "", /default-src 'none'.*frame-ancestors 'none'/, p);
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      assert.equal(res.headers.get("x-frame-options"), "DENY");
      assert.equal(res.headers.get("referrer-policy"), "no-referrer");
    }
  });

  test("a WebSocket upgrade from a foreign Origin is refused with HTTP 403 before the socket opens", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${base.replace("http", "ws")}/ws`, { origin: "http://evil.example" });
      ws.once("open", () => reject(new Error("socket opened")));
      ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.once("error", () => undefined);
    });
    assert.equal(status, 403);
    const same = await WsClient.connect(base, `http://${host}`);
    same.close();
  });

  test("bad WebSocket frames get an error frame and the socket stays usable", async () => {
    const ws = await WsClient.connect(base);
    try {
      ws.socket.send("not json");
      const e1 = await ws.waitFor((f) => f.type === "error", "error for non-JSON");
      assert.equal((e1.payload as { code: string }).code, "BAD_REQUEST");
      const unknown = await ws.request("explode", {});
      assert.equal(unknown.type, "error");
      assert.equal((unknown.payload as { code: string }).code, "UNKNOWN_ACTION");
      const invalid = await ws.request("subscribe", { task_id: "" });
      assert.equal((invalid.payload as { code: string }).code, "VALIDATION_ERROR");
      const extra = await ws.request("subscribe", { task_id: "a", board: true });
      assert.equal(extra.type, "error");
      ws.socket.send(JSON.stringify({ type: "notification", action: "subscribe", payload: { board: true } }));
      await ws.waitFor(
        (f) => f.type === "error" && f.id === undefined && (f.payload as { message: string }).message.includes("only send requests"),
        "error for a notification frame",
      );
      const ok = await ws.request("subscribe", { board: true });
      assert.equal(ok.type, "response");
      assert.deepEqual(ok.payload, { ok: true });
      const unsub = await ws.request("unsubscribe", { board: true });
      assert.equal(unsub.type, "response");
    } finally {
      ws.close();
    }
  });

  test("a closed browser socket is forgotten", async () => {
    // Sockets of earlier tests were terminated; wait until the server has noticed.
    await eventually(() => (server.browserClients() === 0 ? true : undefined), "earlier sockets cleaned up");
    const before = 0;
    const ws = await WsClient.connect(base);
    await ws.request("subscribe", { board: true });
    assert.equal(server.browserClients(), before + 1);
    ws.socket.close();
    await eventually(() => (server.browserClients() === before ? true : undefined), "socket cleanup");
  });

  test("other upgrade paths are refused", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${base.replace("http", "ws")}/api/v1/health`);
      ws.once("open", () => reject(new Error("socket opened")));
      ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.once("error", () => resolve(-1));
    });
    assert.equal(status, 404);
  });

  test("pages: 404 text when the web app is not served", async () => {
    const res = await fetch(`${base}/`);
    assert.equal(res.status, 404);
    assert.match(await res.text(), /KANDEV_SERVE_WEB=false/);
  });
});

describe("web app not built", () => {
  test("pages answer 503 saying to run npm run build; the API still works", async () => {
    const webDir = tempDir();
    fs.mkdirSync(path.join(webDir, ".next"));
    const server = await startTestServer({ serveWeb: true, webDir });
    try {
      const res = await fetch(`${server.url}/tasks`);
      assert.equal(res.status, 503);
      assert.match(await res.text(), /npm run build/);
      assert.equal((await api(server.url, "GET", "/api/v1/health")).status, 200);
    } finally {
      await server.close();
    }
  });
});
