import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { AGENT_ACTION_NAMES, ProtocolError, type Envelope } from "@kandev/protocol";
import { createDispatcher, type ActionHandlers } from "./dispatcher.js";

const status = {
  configured: false,
  agent_running: false,
  agent_pid: null,
  session_id: null,
  turn_active: false,
  pending_permissions: 0,
  pending_elicitations: 0,
};

function handlers(over: Partial<ActionHandlers> = {}): ActionHandlers {
  const fail = () => {
    throw new ProtocolError("CONFLICT", "not in this test");
  };
  return {
    "agent.configure": fail,
    "agent.initialize": fail,
    "agent.session.new": fail,
    "agent.session.load": fail,
    "agent.prompt": fail,
    "agent.session.set_mode": fail,
    "agent.session.set_config_option": fail,
    "agent.cancel": fail,
    "agent.permissions.respond": fail,
    "agent.elicitations.respond": fail,
    "agent.status": () => status,
    "agent.session.close": () => ({ ok: true }),
    ...over,
  };
}

const send = (d: ReturnType<typeof createDispatcher>, frame: unknown) => d.handle(typeof frame === "string" ? frame : JSON.stringify(frame));

describe("dispatcher", () => {
  test("serves exactly AGENT_ACTION_NAMES (completeness)", () => {
    assert.deepEqual([...createDispatcher(handlers()).actions].sort(), [...AGENT_ACTION_NAMES].sort());
  });

  test("answers a request with its result", async () => {
    const out = await send(createDispatcher(handlers()), { id: "1", type: "request", action: "agent.status", payload: {} });
    assert.deepEqual(out, { id: "1", type: "response", action: "agent.status", payload: status });
  });

  test("a null payload counts as {}", async () => {
    const out = await send(createDispatcher(handlers()), { id: "1", type: "request", action: "agent.status", payload: null });
    assert.equal(out?.type, "response");
  });

  test("unknown action -> UNKNOWN_ACTION with the request id", async () => {
    const out = await send(createDispatcher(handlers()), { id: "7", type: "request", action: "agent.fly", payload: {} });
    assert.deepEqual(out, {
      id: "7",
      type: "error",
      action: "agent.fly",
      payload: { code: "UNKNOWN_ACTION", message: 'unknown action "agent.fly"' },
    });
  });

  test("bad params -> VALIDATION_ERROR naming the field; the handler does not run", async () => {
    let ran = false;
    const d = createDispatcher(
      handlers({
        "agent.cancel": () => {
          ran = true;
          return { ok: true };
        },
      }),
    );
    const out = (await send(d, { id: "2", type: "request", action: "agent.cancel", payload: { session_id: 5 } })) as Envelope;
    assert.equal(out.type, "error");
    const p = out.payload as { code: string; details: { path: string }[] };
    assert.equal(p.code, "VALIDATION_ERROR");
    assert.equal(p.details[0]?.path, "session_id");
    assert.equal(ran, false);
  });

  test("ProtocolError codes survive", async () => {
    const out = (await send(createDispatcher(handlers()), {
      id: "3",
      type: "request",
      action: "agent.cancel",
      payload: { session_id: "s" },
    })) as Envelope;
    assert.deepEqual(out.payload, { code: "CONFLICT", message: "not in this test" });
  });

  test("any other throw -> INTERNAL_ERROR", async () => {
    const d = createDispatcher(
      handlers({
        "agent.status": () => {
          throw new Error("boom");
        },
      }),
      { log: () => {} },
    );
    const out = (await send(d, { id: "4", type: "request", action: "agent.status", payload: {} })) as Envelope;
    assert.deepEqual(out.payload, { code: "INTERNAL_ERROR", message: "boom" });
  });

  test("a result that fails its schema -> INTERNAL_ERROR, not a bad frame on the wire", async () => {
    const d = createDispatcher(handlers({ "agent.status": () => ({ nope: 1 }) as never }), { log: () => {} });
    const out = (await send(d, { id: "5", type: "request", action: "agent.status", payload: {} })) as Envelope;
    assert.equal((out.payload as { code: string }).code, "INTERNAL_ERROR");
  });

  test("malformed JSON -> BAD_REQUEST without id", async () => {
    const out = await send(createDispatcher(handlers()), "{not json");
    assert.deepEqual(out, { type: "error", action: "error", payload: { code: "BAD_REQUEST", message: "frame is not valid JSON" } });
  });

  test("a non-envelope keeps its id so the sender can fail that request", async () => {
    const out = (await send(createDispatcher(handlers()), { id: "9", type: "shout", action: "agent.status" })) as Envelope;
    assert.equal(out.id, "9");
    assert.equal((out.payload as { code: string }).code, "BAD_REQUEST");
  });

  test("a request without id -> BAD_REQUEST", async () => {
    const out = (await send(createDispatcher(handlers()), { type: "request", action: "agent.status" })) as Envelope;
    assert.equal((out.payload as { code: string }).code, "BAD_REQUEST");
  });

  test("responses from the peer go to onPeerReply and get no answer", async () => {
    const seen: Envelope[] = [];
    const d = createDispatcher(handlers(), { onPeerReply: (f) => seen.push(f) });
    const out = await send(d, { id: "x", type: "response", action: "kandev.ask_user_question", payload: {} });
    assert.equal(out, null);
    assert.equal(seen.length, 1);
  });

  test("notifications from the peer are refused", async () => {
    const out = (await send(createDispatcher(handlers()), { type: "notification", action: "agent.status", payload: {} })) as Envelope;
    assert.equal((out.payload as { code: string }).code, "BAD_REQUEST");
  });
});
