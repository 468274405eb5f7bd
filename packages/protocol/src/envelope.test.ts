import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { z } from "zod";
import {
  EnvelopeSchema,
  ProtocolError,
  checkEnvelope,
  errorFrame,
  inSession,
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

describe("checkEnvelope (the hand-written EnvelopeSchema of the hot path)", () => {
  const zodVerdict = (v: unknown) => {
    const r = EnvelopeSchema.safeParse(v);
    return r.success ? r.data : null;
  };
  // Strings around the 1..128 bounds, in code units and code points (a surrogate pair is one).
  const name = fc.oneof(
    fc.constantFrom(
      "",
      "a",
      "agent.prompt",
      "x".repeat(128),
      "x".repeat(129),
      "😀".repeat(64),
      "😀".repeat(65),
      "😀".repeat(129),
      "\ud83d".repeat(129),
    ),
    fc.string({ maxLength: 140 }),
    fc.string({ unit: "grapheme", maxLength: 140 }),
  );
  const type = fc.oneof(fc.constantFrom("request", "response", "notification", "error", "Request", ""), fc.string());
  const anyValue = fc.oneof(name, type, fc.jsonValue({ maxDepth: 2 }));
  const frame = fc.record(
    {
      id: fc.oneof(name, anyValue),
      session: fc.oneof(name, anyValue),
      type: fc.oneof(type, anyValue),
      action: fc.oneof(name, anyValue),
      payload: anyValue,
      extra: anyValue,
    },
    { requiredKeys: [] },
  );

  test("agrees with EnvelopeSchema (verdict and output, keys and their order) on arbitrary frames", () => {
    fc.assert(
      fc.property(fc.oneof(frame, fc.jsonValue()), (v) => {
        const ours = checkEnvelope(v);
        const theirs = zodVerdict(v);
        assert.deepStrictEqual(ours, theirs);
        if (ours !== null) assert.deepStrictEqual(Object.keys(ours), Object.keys(theirs!));
      }),
      { numRuns: 5000 },
    );
  });

  test("examples: payload is required (any value), unknown keys are dropped, id and action are 1-128 code points", () => {
    const ok = { id: "1", type: "request", action: "a", payload: null };
    assert.deepEqual(checkEnvelope({ ...ok, extra: 1 }), ok);
    assert.equal(checkEnvelope({ id: "1", type: "request", action: "a" }), null);
    assert.equal(checkEnvelope({ ...ok, id: "" }), null);
    assert.equal(checkEnvelope({ ...ok, id: 5 }), null);
    assert.deepEqual(checkEnvelope({ ...ok, action: "😀".repeat(128) })?.action, "😀".repeat(128));
    assert.equal(checkEnvelope({ ...ok, action: "😀".repeat(129) }), null);
    assert.deepEqual(checkEnvelope({ ...ok, session: "s1" }), { id: "1", session: "s1", type: "request", action: "a", payload: null });
    assert.equal(checkEnvelope({ ...ok, session: "" }), null);
    assert.equal(checkEnvelope({ ...ok, session: 7 }), null);
  });

  test("inSession tags a frame with its agent-stream session, keeping the schema's key order", () => {
    const tagged = inSession("s1", requestFrame("1", "agent.prompt", {}));
    assert.deepEqual(Object.keys(tagged), ["id", "session", "type", "action", "payload"]);
    assert.deepEqual(parseEnvelope(JSON.stringify(tagged)), tagged);
    assert.deepEqual(Object.keys(inSession("s1", notificationFrame("turn.ended", {}))), ["session", "type", "action", "payload"]);
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
    assert.deepEqual(
      (p.details as Array<{ path: string }>).map((d) => d.path),
      ["a.b"],
    );
  });
  test("anything else is INTERNAL_ERROR with its message", () => {
    assert.deepEqual(toErrorPayload(new Error("boom")), { code: "INTERNAL_ERROR", message: "boom" });
    assert.deepEqual(toErrorPayload("weird"), { code: "INTERNAL_ERROR", message: "weird" });
  });
});
