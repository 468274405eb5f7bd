import { test, describe } from "node:test";
import assert from "node:assert/strict";
import type * as acp from "@agentclientprotocol/sdk";
import { ProtocolError, type AgentEvent } from "@kandev/protocol";
import { PermissionBroker, firstAllowOption } from "./permissions.js";

const options: acp.PermissionOption[] = [
  { optionId: "no", name: "Reject", kind: "reject_once" },
  { optionId: "yes", name: "Allow", kind: "allow_once" },
];
const req = (sessionId = "s1"): acp.RequestPermissionRequest => ({
  sessionId,
  toolCall: { toolCallId: "t1", title: "Write" },
  options,
});

function broker(autoApprove = false) {
  const requested: AgentEvent<"permission.requested">[] = [];
  const settled: AgentEvent<"permission.settled">[] = [];
  let n = 0;
  const b = new PermissionBroker({
    emitRequested: (p) => requested.push(p),
    emitSettled: (p) => settled.push(p),
    autoApprove: () => autoApprove,
    newId: () => `p${++n}`,
  });
  return { b, requested, settled };
}

describe("PermissionBroker", () => {
  test("announces, then resolves with the operator's option", async () => {
    const { b, requested, settled } = broker();
    const answer = b.request(req(), new AbortController().signal);
    assert.deepEqual(requested, [
      {
        pending_id: "p1",
        session_id: "s1",
        tool_call_id: "t1",
        title: "Write",
        options: [
          { option_id: "no", name: "Reject", kind: "reject_once" },
          { option_id: "yes", name: "Allow", kind: "allow_once" },
        ],
      },
    ]);
    assert.equal(b.pendingCount, 1);
    assert.deepEqual(b.respond({ pending_id: "p1", option_id: "yes" }), { success: true });
    assert.deepEqual(await answer, { outcome: { outcome: "selected", optionId: "yes" } });
    assert.deepEqual(settled, [{ pending_id: "p1", outcome: "selected", option_id: "yes", reason: "operator" }]);
    assert.equal(b.pendingCount, 0);
  });

  test("unknown pending id -> NOT_FOUND; unknown option -> VALIDATION_ERROR and stays pending", async () => {
    const { b } = broker();
    void b.request(req(), new AbortController().signal);
    assert.throws(
      () => b.respond({ pending_id: "zz", option_id: "yes" }),
      (e: unknown) => e instanceof ProtocolError && e.code === "NOT_FOUND",
    );
    assert.throws(
      () => b.respond({ pending_id: "p1", option_id: "maybe" }),
      (e: unknown) => e instanceof ProtocolError && e.code === "VALIDATION_ERROR",
    );
    assert.throws(
      () => b.respond({ pending_id: "p1" }),
      (e: unknown) => e instanceof ProtocolError && e.code === "VALIDATION_ERROR",
    );
    assert.throws(
      () => b.respond({ pending_id: "p1", option_id: "yes", cancelled: true }),
      (e: unknown) => e instanceof ProtocolError && e.code === "VALIDATION_ERROR",
    );
    assert.equal(b.pendingCount, 1);
  });

  test("operator cancel answers cancelled", async () => {
    const { b, settled } = broker();
    const answer = b.request(req(), new AbortController().signal);
    b.respond({ pending_id: "p1", cancelled: true });
    assert.deepEqual(await answer, { outcome: { outcome: "cancelled" } });
    assert.equal(settled[0]?.reason, "operator");
  });

  test("auto-approve picks the first allow option without announcing", async () => {
    const { b, requested, settled } = broker(true);
    assert.deepEqual(await b.request(req(), new AbortController().signal), { outcome: { outcome: "selected", optionId: "yes" } });
    assert.equal(requested.length + settled.length, 0);
  });

  test("auto-approve with no allow option falls back to asking", () => {
    const { b, requested } = broker(true);
    void b.request({ ...req(), options: [options[0]!] }, new AbortController().signal);
    assert.equal(requested.length, 1);
    assert.equal(firstAllowOption([options[0]!]), null);
  });

  test("agent-side abort, session cancel and cancelAll settle as cancelled once", async () => {
    const { b, settled } = broker();
    const ac = new AbortController();
    const a = b.request(req("s1"), ac.signal);
    const c = b.request(req("s2"), new AbortController().signal);
    const d = b.request(req("s3"), new AbortController().signal);
    ac.abort();
    b.cancelSession("s2", "turn_cancelled");
    b.cancelAll("shutdown");
    b.cancelAll("shutdown");
    for (const p of [a, c, d]) assert.deepEqual(await p, { outcome: { outcome: "cancelled" } });
    assert.deepEqual(
      settled.map((s) => [s.pending_id, s.reason]),
      [
        ["p1", "agent_cancelled"],
        ["p2", "turn_cancelled"],
        ["p3", "shutdown"],
      ],
    );
  });
});
