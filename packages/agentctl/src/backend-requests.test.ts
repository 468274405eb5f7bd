import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { ProtocolError, errorFrame, responseFrame, type Envelope } from "@kandev/protocol";
import { BackendRequestError, BackendRequests } from "./backend-requests.js";

const QUESTIONS = [{ prompt: "Which DB?", options: [{ label: "Postgres" }, { label: "SQLite" }] }];
const ANSWER = { text: "The operator chose Postgres.", answer: { answers: [{ question_id: "q1", selected_options: ["postgres"] }] } };

function harness(connected = true, timeoutMs?: number) {
  const sent: Envelope[] = [];
  const logs: string[] = [];
  let online = connected;
  const requests = new BackendRequests({
    send: (frame) => {
      if (!online) return false;
      sent.push(frame);
      return true;
    },
    log: (m) => logs.push(m),
    ...(timeoutMs !== undefined && { timeoutMs }),
  });
  const ask = (sessionId: string | null = "s1", signal?: AbortSignal) =>
    requests.request("kandev.ask_user_question", { session_id: sessionId, questions: QUESTIONS }, { sessionId, ...(signal && { signal }) });
  return { requests, sent, logs, ask, setOnline: (v: boolean) => (online = v) };
}

const isBackendError = (code: string) => (e: unknown) => e instanceof BackendRequestError && e.code === code;

describe("BackendRequests (agentctl -> backend request correlation)", () => {
  test("sends a request frame with a unique agentctl id and resolves with the matching response", async () => {
    const h = harness();
    const a = h.ask("s1");
    const b = h.ask("s1");
    assert.equal(h.sent.length, 2);
    const [fa, fb] = h.sent as [Envelope, Envelope];
    assert.equal(fa.type, "request");
    assert.equal(fa.action, "kandev.ask_user_question");
    assert.deepEqual(fa.payload, { session_id: "s1", questions: QUESTIONS });
    assert.match(fa.id ?? "", /^agentctl-\d+$/);
    assert.notEqual(fa.id, fb.id);
    assert.equal(h.requests.pendingCount, 2);
    // Answers may come in any order; each resolves its own request.
    const other = { ...ANSWER, text: "second" };
    assert.equal(h.requests.onReply(responseFrame(fb.id!, fb.action, other)), true);
    assert.equal(h.requests.onReply(responseFrame(fa.id!, fa.action, ANSWER)), true);
    assert.deepEqual(await a, ANSWER);
    assert.deepEqual(await b, other);
    assert.equal(h.requests.pendingCount, 0);
  });

  test("no backend connected -> fails at once with NOT_CONNECTED, nothing is kept pending", async () => {
    const h = harness(false);
    await assert.rejects(h.ask(), isBackendError("NOT_CONNECTED"));
    assert.equal(h.requests.pendingCount, 0);
  });

  test("an error frame rejects with the backend's own code and message", async () => {
    const h = harness();
    const p = h.ask();
    const f = h.sent[0]!;
    h.requests.onReply(errorFrame(f.id, f.action, { code: "VALIDATION_ERROR", message: "ask 1-4 questions" }));
    await assert.rejects(p, (e: unknown) => e instanceof ProtocolError && e.code === "VALIDATION_ERROR" && e.message === "ask 1-4 questions");
  });

  test("a result or error that fails its schema rejects INTERNAL_ERROR instead of passing garbage on", async () => {
    const h = harness();
    const p1 = h.ask();
    const p2 = h.ask();
    h.requests.onReply(responseFrame(h.sent[0]!.id!, "kandev.ask_user_question", { answers: [] })); // old shape, no text
    h.requests.onReply({ id: h.sent[1]!.id!, type: "error", action: "kandev.ask_user_question", payload: { nope: 1 } });
    await assert.rejects(p1, (e: unknown) => e instanceof ProtocolError && e.code === "INTERNAL_ERROR");
    await assert.rejects(p2, (e: unknown) => e instanceof ProtocolError && e.code === "INTERNAL_ERROR");
  });

  test("the connection going away rejects every pending request with NOT_CONNECTED", async () => {
    const h = harness();
    const all = [h.ask("s1"), h.ask("s2"), h.ask(null)];
    h.requests.rejectAll("replaced");
    for (const p of all) await assert.rejects(p, (e: unknown) => isBackendError("NOT_CONNECTED")(e) && /replaced/.test((e as Error).message));
    assert.equal(h.requests.pendingCount, 0);
  });

  test("a late answer to an abandoned request is dropped and logged, never throws", async () => {
    const h = harness();
    const p = h.ask();
    const f = h.sent[0]!;
    h.requests.rejectAll("closed");
    await assert.rejects(p, isBackendError("NOT_CONNECTED"));
    assert.equal(h.requests.onReply(responseFrame(f.id!, f.action, ANSWER)), false);
    assert.equal(h.requests.onReply(responseFrame("agentctl-999", f.action, ANSWER)), false);
    assert.equal(h.logs.filter((l) => /answers no pending request/.test(l)).length, 2);
  });

  test("cancelSession abandons only that session's requests; pendingForSession counts per session", async () => {
    const h = harness();
    const s1 = h.ask("s1");
    const s2 = h.ask("s2");
    assert.equal(h.requests.pendingForSession("s1"), 1);
    h.requests.cancelSession("s1", "turn_cancelled");
    await assert.rejects(s1, (e: unknown) => isBackendError("CANCELLED")(e) && /turn_cancelled/.test((e as Error).message));
    assert.equal(h.requests.pendingForSession("s1"), 0);
    assert.equal(h.requests.pendingForSession("s2"), 1);
    h.requests.onReply(responseFrame(h.sent[1]!.id!, "kandev.ask_user_question", ANSWER));
    assert.deepEqual(await s2, ANSWER);
  });

  test("cancelAll abandons everything (agent exit, shutdown)", async () => {
    const h = harness();
    const all = [h.ask("s1"), h.ask("s2")];
    h.requests.cancelAll("shutdown");
    for (const p of all) await assert.rejects(p, isBackendError("CANCELLED"));
  });

  test("the caller's abort signal abandons the request; an already aborted one is never sent", async () => {
    const h = harness();
    const ac = new AbortController();
    const p = h.ask("s1", ac.signal);
    ac.abort();
    await assert.rejects(p, isBackendError("CANCELLED"));
    assert.equal(h.requests.pendingCount, 0);
    await assert.rejects(h.ask("s1", AbortSignal.abort()), isBackendError("CANCELLED"));
    assert.equal(h.sent.length, 1);
  });

  test("the ceiling timeout rejects TIMEOUT; the default ceiling is above the backend's 2 h", async () => {
    const h = harness(true, 20);
    // The ceiling timer is unref'd so it never keeps agentctl alive; hold the test's loop open.
    const keepAlive = setInterval(() => {}, 1_000);
    try {
      await assert.rejects(h.ask(), isBackendError("TIMEOUT"));
    } finally {
      clearInterval(keepAlive);
    }
    assert.equal(h.requests.pendingCount, 0);
    const { BACKEND_REQUEST_CEILING_MS } = await import("./backend-requests.js");
    assert.ok(BACKEND_REQUEST_CEILING_MS > 2 * 60 * 60_000);
  });

  test("invalid params are refused before anything is sent", async () => {
    const h = harness();
    await assert.rejects(
      h.requests.request("kandev.ask_user_question", { session_id: 5 } as never, { sessionId: null }),
      (e: unknown) => e instanceof ProtocolError && e.code === "VALIDATION_ERROR",
    );
    assert.equal(h.sent.length, 0);
  });
});
