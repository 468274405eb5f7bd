import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import {
  EnvelopeSchema,
  ProtocolError,
  errorFrame,
  notificationFrame,
  parseEnvelope,
  requestFrame,
  toErrorPayload,
} from "./envelope.js";

describe("envelope", () => {
  test("round-trips every frame kind through JSON and the schema", () => {
    const frames = [
      requestFrame("1", "agent.prompt", { text: "hi" }),
      errorFrame("1", "agent.prompt", { code: "CONFLICT", message: "busy" }),
      notificationFrame("turn.ended", { stop_reason: "end_turn" }),
    ];
    for (const f of frames) assert.deepEqual(parseEnvelope(JSON.stringify(f)), f);
  });

  test("rejects non-JSON and non-envelope text with BAD_REQUEST", () => {
    for (const raw of ["{", "[]", '{"type":"shout","action":"x"}', '{"type":"request"}', "null"]) {
      assert.throws(
        () => parseEnvelope(raw),
        (e: unknown) => e instanceof ProtocolError && e.code === "BAD_REQUEST",
        raw,
      );
    }
  });

  test("an error frame without a request id still validates (errors on unparseable requests)", () => {
    const f = errorFrame(undefined, "unknown", { code: "BAD_REQUEST", message: "bad" });
    assert.equal(EnvelopeSchema.parse(f).id, undefined);
  });
});

describe("toErrorPayload keeps codes as codes", () => {
  test("a ProtocolError keeps its code and details", () => {
    const p = toErrorPayload(new ProtocolError("NOT_FOUND", "gone", { pending_id: "x" }));
    assert.deepEqual(p, { code: "NOT_FOUND", message: "gone", details: { pending_id: "x" } });
  });
  test("a zod failure becomes VALIDATION_ERROR with paths", () => {
    const r = z.object({ a: z.object({ b: z.string() }) }).safeParse({ a: { b: 1 } });
    assert.equal(r.success, false);
    const p = toErrorPayload(r.error);
    assert.equal(p.code, "VALIDATION_ERROR");
    assert.deepEqual((p.details as Array<{ path: string }>).map((d) => d.path), ["a.b"]);
  });
  test("anything else is INTERNAL_ERROR with its message", () => {
    assert.deepEqual(toErrorPayload(new Error("boom")), { code: "INTERNAL_ERROR", message: "boom" });
    assert.deepEqual(toErrorPayload("weird"), { code: "INTERNAL_ERROR", message: "weird" });
  });
});
