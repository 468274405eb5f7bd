import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCodeSchema, ProtocolError } from "@kandev/protocol";
import { z } from "zod";
import { HttpError, toErrorReply } from "./errors.js";

describe("toErrorReply", () => {
  test("HttpError keeps its status, code and details", () => {
    assert.deepEqual(toErrorReply(new HttpError(413, "PAYLOAD_TOO_LARGE", "big")), {
      status: 413,
      body: { error: { code: "PAYLOAD_TOO_LARGE", message: "big" } },
    });
  });

  test("a zod failure is 400 VALIDATION_ERROR with path/message details", () => {
    const r = z.object({ title: z.string() }).safeParse({ title: 3 });
    assert.equal(r.success, false);
    const reply = toErrorReply(r.error);
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.code, "VALIDATION_ERROR");
    assert.deepEqual(
      (reply.body.error.details as Array<{ path: string }>).map((d) => d.path),
      ["title"],
    );
  });

  test("protocol codes keep their code; NOT_CONNECTED becomes 503 agent_stream_not_connected", () => {
    assert.deepEqual(toErrorReply(new ProtocolError("CONFLICT", "busy")).status, 409);
    assert.equal(toErrorReply(new ProtocolError("CONFLICT", "busy")).body.error.code, "CONFLICT");
    assert.equal(toErrorReply(new ProtocolError("NOT_FOUND", "x")).status, 404);
    const nc = toErrorReply(new ProtocolError("NOT_CONNECTED", "gone"));
    assert.equal(nc.status, 503);
    assert.equal(nc.body.error.code, "agent_stream_not_connected");
  });

  test("every protocol error code maps to a 4xx/5xx status", () => {
    for (const code of ErrorCodeSchema.options) {
      const { status } = toErrorReply(new ProtocolError(code, "m"));
      assert.ok(status >= 400 && status < 600, `${code} -> ${status}`);
    }
  });

  test("SQLite failures name the machine's condition: locked 503 DATABASE_BUSY, full 507 DATABASE_FULL, else 500 DATABASE_ERROR", () => {
    const sqlite = (code: string, message: string) => Object.assign(new Error(message), { name: "SqliteError", code });
    const busy = toErrorReply(sqlite("SQLITE_BUSY", "database is locked"));
    assert.deepEqual([busy.status, busy.body.error.code, busy.body.error.details], [503, "DATABASE_BUSY", { sqlite_code: "SQLITE_BUSY" }]);
    assert.match(busy.body.error.message, /locked by another connection.*try again/);
    assert.equal(toErrorReply(sqlite("SQLITE_LOCKED_SHAREDCACHE", "locked")).body.error.code, "DATABASE_BUSY");
    const full = toErrorReply(sqlite("SQLITE_FULL", "database or disk is full"));
    assert.deepEqual([full.status, full.body.error.code], [507, "DATABASE_FULL"]);
    assert.match(full.body.error.message, /disk holding the database is full/);
    const io = toErrorReply(sqlite("SQLITE_IOERR_WRITE", "disk I/O error"));
    assert.deepEqual([io.status, io.body.error.code, io.body.error.message], [500, "DATABASE_ERROR", "the database failed: disk I/O error"]);
    assert.equal(toErrorReply(Object.assign(new Error("x"), { code: "SQLITE_FULL" })).body.error.code, "INTERNAL_ERROR", "only a SqliteError");
  });

  test("anything else is 500 INTERNAL_ERROR with the message", () => {
    assert.deepEqual(toErrorReply(new Error("boom")), { status: 500, body: { error: { code: "INTERNAL_ERROR", message: "boom" } } });
    assert.equal(toErrorReply("str").body.error.message, "str");
  });
});
