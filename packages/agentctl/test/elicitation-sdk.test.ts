// The ACP SDK wiring of the elicitation handler, over an in-process client/agent pair of the real
// SDK 2.4 (the process-level proof is elicitation-integration.test.ts). It pins the finding behind
// `rawElicitationParams`: registered with the SDK's own schema, malformed bodies never reach us and
// the agent gets -32602; registered with the identity parser, our validator declines them.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { ElicitationManager, rawElicitationParams, type ElicitationEmit } from "../src/elicitation/index.js";
import { formParams, opts } from "./elicitation-helpers.js";

type Event = { event: string; payload: Record<string, unknown> };

function raw(client: acp.ClientApp, manager: ElicitationManager): acp.ClientApp {
  return client.onRequest(acp.methods.client.elicitation.create, rawElicitationParams, ({ params, signal }) => manager.handleCreate(params, signal));
}

/** The agent side of an in-process pair: agentApp.connect(clientApp) gives a context to call the client. */
function pair(flag = true) {
  const events: Event[] = [];
  const emit: ElicitationEmit = (event, payload) => events.push({ event, payload });
  const manager = new ElicitationManager({ features: () => ({ acpElicitation: flag }), answerTimeoutMs: 60_000, emit });
  const client = raw(acp.client({ name: "test-client" }), manager);
  const connection = acp.agent({ name: "test-agent" }).connect(client);
  return { manager, events, connection, client: connection.client };
}

const ask = formParams(
  { question_0: { type: "string", title: "Colour", oneOf: opts("Red", "Blue") } },
  { toolCallId: "toolu_1", message: "Pick a colour" },
);

async function waitFor(cond: () => boolean, what: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

describe("ACP SDK wiring", () => {
  test("a form, session-scoped elicitation/create reaches the handler and the answer reaches the agent (AC-03)", async () => {
    const p = pair();
    try {
      const response = p.client.request(acp.methods.client.elicitation.create, ask as acp.CreateElicitationRequest);
      await waitFor(() => p.events.length === 1, "elicitation.requested");
      const id = p.events[0]?.payload.pending_id as string;
      p.manager.respond({ pending_id: id, answers: [{ question_id: "question_0", selected_options: ["Red"] }] });
      assert.deepEqual(await response, { action: "accept", content: { question_0: "Red" } });
    } finally {
      p.connection.close();
    }
  });

  test("with rawElicitationParams malformed bodies are declined by us instead of -32602 from the SDK (AC-18)", async () => {
    const p = pair();
    try {
      const malformed: unknown[] = [
        { mode: "form", message: "m", requestedSchema: { type: "object", properties: {} } },
        { mode: "form", sessionId: "s", requestedSchema: {} },
        { ...ask, requestId: 3 },
        42,
      ];
      for (const params of malformed) {
        const r = await p.client.request<unknown, unknown>(acp.methods.client.elicitation.create, params);
        assert.deepEqual(r, { action: "decline" }, JSON.stringify(params));
      }
      assert.equal(p.events.length, 0);
      // An option without a title is -32602 for the SDK but answerable for us (label = const).
      const lenient = p.client.request<unknown, unknown>(
        acp.methods.client.elicitation.create,
        formParams({ q: { type: "string", oneOf: [{ const: "a" }] } }),
      );
      await waitFor(() => p.events.length === 1, "elicitation.requested");
      p.manager.respond({ pending_id: p.events[0]?.payload.pending_id as string, answers: [{ question_id: "q", selected_options: ["a"] }] });
      assert.deepEqual(await lenient, { action: "accept", content: { q: "a" } });
    } finally {
      p.connection.close();
    }
  });

  test("the SDK's own params schema (no parser given) answers malformed bodies -32602 before any handler", async () => {
    let reached = 0;
    const client = acp.client({ name: "sdk-parser" }).onRequest(acp.methods.client.elicitation.create, () => {
      reached += 1;
      return { action: "decline" };
    });
    const connection = acp.agent({ name: "a" }).connect(client);
    try {
      await assert.rejects(
        connection.client.request<unknown, unknown>(acp.methods.client.elicitation.create, { mode: "form", message: "m", requestedSchema: {} }),
        (e: unknown) => e instanceof acp.RequestError && e.code === -32602,
      );
      assert.equal(reached, 0);
    } finally {
      connection.close();
    }
  });

  test("flag off over the SDK: the agent gets decline and no event is emitted (AC-20)", async () => {
    const p = pair(false);
    try {
      assert.deepEqual(await p.client.request(acp.methods.client.elicitation.create, ask as acp.CreateElicitationRequest), {
        action: "decline",
      });
      assert.equal(p.events.length, 0);
    } finally {
      p.connection.close();
    }
  });

  test("$/cancel_request from the agent aborts the handler's signal: the agent gets cancel, settled agent_cancelled", async () => {
    const p = pair();
    try {
      const ac = new AbortController();
      const response = p.client.request(acp.methods.client.elicitation.create, ask as acp.CreateElicitationRequest, {
        cancellationSignal: ac.signal,
      });
      await waitFor(() => p.events.length === 1, "elicitation.requested");
      ac.abort();
      // The SDK keeps waiting for the peer's answer after sending $/cancel_request (unless told to
      // stop waiting), so the agent sees our one response: cancel.
      assert.deepEqual(await response, { action: "cancel" });
      await waitFor(() => p.events.length === 2, "elicitation.settled");
      assert.deepEqual(p.events[1], {
        event: "elicitation.settled",
        payload: { pending_id: p.events[0]?.payload.pending_id, outcome: "cancelled", reason: "agent_cancelled" },
      });
      assert.equal(p.manager.pendingCount, 0);
    } finally {
      p.connection.close();
    }
  });

  test("closing the ACP connection settles the pending as cancelled/agent_disconnected", async () => {
    const p = pair();
    const response = p.client.request(acp.methods.client.elicitation.create, ask as acp.CreateElicitationRequest);
    response.catch(() => {});
    await waitFor(() => p.events.length === 1, "elicitation.requested");
    p.connection.close();
    await waitFor(() => p.events.length === 2, "elicitation.settled");
    assert.equal(p.events[1]?.payload.reason, "agent_disconnected");
    assert.equal(p.manager.pendingCount, 0);
  });
});
