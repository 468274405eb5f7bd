import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { parseCreateRequest } from "./request.js";
import { formParams } from "../../test/elicitation-helpers.js";

function reasonOf(raw: unknown): string {
  const r = parseCreateRequest(raw);
  return r.ok ? "ok" : r.reason;
}

describe("elicitation/create request check", () => {
  test("accepts a form, session-scoped request and keeps toolCallId and message", () => {
    const r = parseCreateRequest(formParams({ a: { type: "string" } }, { toolCallId: "tool-1", message: "Hi" }));
    assert.ok(r.ok);
    assert.equal(r.value.sessionId, "sess-1");
    assert.equal(r.value.toolCallId, "tool-1");
    assert.equal(r.value.message, "Hi");
    assert.deepEqual([...r.value.properties.keys()], ["a"]);
  });

  test("declines a url-mode request (AC-16)", () => {
    assert.equal(reasonOf({ mode: "url", sessionId: "s", message: "auth", url: "https://example.invalid/a", elicitationId: "e-1" }), "url_mode");
  });

  test("declines a request scoped by requestId instead of sessionId (AC-17)", () => {
    const raw = formParams({ a: { type: "string" } });
    delete raw.sessionId;
    assert.equal(reasonOf({ ...raw, requestId: 7 }), "request_scope");
    assert.equal(reasonOf({ ...raw, requestId: "r-1" }), "request_scope");
  });

  test("declines a request carrying both scopes (the SDK would strip requestId; we fail closed) (AC-17)", () => {
    assert.equal(reasonOf({ ...formParams({ a: { type: "string" } }), requestId: 3 }), "ambiguous_scope");
  });

  test("malformed bodies are declined, never thrown (AC-18)", () => {
    const good = formParams({ a: { type: "string" } });
    const cases: Array<[unknown, string]> = [
      [null, "not_an_object"],
      [undefined, "not_an_object"],
      [42, "not_an_object"],
      ["form", "not_an_object"],
      [[good], "not_an_object"],
      [{ ...good, mode: undefined }, "unsupported_mode"],
      [{ ...good, mode: "FORM" }, "unsupported_mode"],
      [{ ...good, mode: "_vendor" }, "unsupported_mode"],
      [{ ...good, sessionId: "" }, "missing_session"],
      [{ ...good, sessionId: 5 }, "missing_session"],
      [{ ...good, sessionId: null }, "missing_session"],
      [{ ...good, toolCallId: 5 }, "malformed"],
      [{ ...good, message: undefined }, "malformed"],
      [{ ...good, message: 1 }, "malformed"],
      [{ ...good, requestedSchema: undefined }, "malformed"],
      [{ ...good, requestedSchema: [] }, "malformed"],
      [{ ...good, requestedSchema: { type: "array", properties: {} } }, "malformed"],
      [{ ...good, requestedSchema: { type: "object", properties: [] } }, "malformed"],
      [{ ...good, requestedSchema: { type: "object", properties: "x" } }, "malformed"],
    ];
    for (const [raw, reason] of cases) assert.equal(reasonOf(raw), reason, JSON.stringify(raw));
  });

  test("a null toolCallId and absent properties are tolerated (properties then map to nothing)", () => {
    const r = parseCreateRequest({ mode: "form", sessionId: "s", toolCallId: null, message: "m", requestedSchema: {} });
    assert.ok(r.ok);
    assert.equal(r.value.toolCallId, null);
    assert.equal(r.value.properties.size, 0);
  });

  test("keys such as __proto__ and constructor are read as own data, not inherited", () => {
    const raw = JSON.parse(
      '{"mode":"form","sessionId":"s","message":"m","requestedSchema":{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"string"}}}}',
    );
    const r = parseCreateRequest(raw);
    assert.ok(r.ok);
    assert.deepEqual([...r.value.properties.keys()], ["__proto__", "constructor"]);
    assert.deepEqual(r.value.properties.get("__proto__"), { type: "string" });
  });
});
