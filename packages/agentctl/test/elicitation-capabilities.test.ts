import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as acp from "@agentclientprotocol/sdk";
import { buildClientCapabilities, CURSOR_AGENT_ID } from "../src/capabilities.js";
import { fixtureUrl } from "./elicitation-fixtures.js";

const OFF = { acpElicitation: false };
const ON = { acpElicitation: true };

/** The exact bytes agentctl puts on the wire for this value, with the fixture's trailing newline. */
function bytes(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}
function fixture(name: string): string {
  return readFileSync(fixtureUrl(`capabilities/${name}.json`), "utf8");
}

describe("client capabilities", () => {
  test("flag off: each agent-scoped variant equals its checked-in baseline byte for byte, with no elicitation key (AC-02)", () => {
    const cases: Array<[string, string]> = [
      ["claude-acp", "claude-acp.flag-off"],
      [CURSOR_AGENT_ID, "cursor-agent.flag-off"],
      ["generic", "generic.flag-off"],
      ["mock", "generic.flag-off"],
      ["opencode-acp", "generic.flag-off"],
    ];
    for (const [agentId, file] of cases) {
      const caps = buildClientCapabilities(agentId, OFF);
      assert.equal(bytes(caps), fixture(file), agentId);
      assert.ok(!("elicitation" in caps), agentId);
    }
    // Two distinct baselines: the cursor shape is pinned on its own.
    assert.notEqual(fixture("cursor-agent.flag-off"), fixture("claude-acp.flag-off"));
  });

  test("flag on: elicitation.form is advertised as an object, never url (AC-01)", () => {
    const caps = buildClientCapabilities("claude-acp", ON);
    assert.deepEqual(caps.elicitation, { form: {} });
    assert.equal(typeof caps.elicitation?.form, "object");
    assert.ok(!("url" in (caps.elicitation ?? {})));
    assert.equal(bytes(caps), fixture("claude-acp.flag-on"));
  });

  test("flag on for cursor-agent is its flag-off fixture plus elicitation.form and nothing else (AC-02a)", () => {
    const off = JSON.parse(fixture("cursor-agent.flag-off")) as Record<string, unknown>;
    const on = buildClientCapabilities(CURSOR_AGENT_ID, ON);
    assert.deepEqual(on, { ...off, elicitation: { form: {} } });
    assert.equal(bytes(on), fixture("cursor-agent.flag-on"));
    for (const agentId of ["claude-acp", "generic", CURSOR_AGENT_ID]) {
      const { elicitation, ...rest } = buildClientCapabilities(agentId, ON);
      assert.deepEqual(elicitation, { form: {} });
      assert.deepEqual(rest, buildClientCapabilities(agentId, OFF));
    }
  });

  test("the ACP SDK keeps form: {} but silently drops form: true (why the value is an object) (AC-01)", async () => {
    const asObject = await initializeAsSeenByAgent(buildClientCapabilities("claude-acp", ON));
    assert.deepEqual(asObject.elicitation?.form, {});
    assert.deepEqual(asObject._meta, { terminal_output: true });
    const asTrue = await initializeAsSeenByAgent({ _meta: { terminal_output: true }, elicitation: { form: true } });
    assert.equal(asTrue.elicitation?.form ?? undefined, undefined);
  });

  test("each call returns a fresh object, so one session's capabilities cannot leak into another's", () => {
    const a = buildClientCapabilities(CURSOR_AGENT_ID, OFF);
    const b = buildClientCapabilities(CURSOR_AGENT_ID, OFF);
    assert.notEqual(a, b);
    assert.notEqual(a._meta, b._meta);
    a._meta.leak = true;
    assert.ok(!("leak" in buildClientCapabilities(CURSOR_AGENT_ID, OFF)._meta));
  });
});

/** Runs a real in-process ACP initialize and returns the clientCapabilities the agent's handler got. */
async function initializeAsSeenByAgent(clientCapabilities: unknown): Promise<acp.ClientCapabilities> {
  let seen: acp.InitializeRequest | undefined;
  const agent = acp.agent({ name: "probe-agent" }).onRequest(acp.methods.agent.initialize, ({ params }) => {
    seen = params;
    return { protocolVersion: 1 };
  });
  await acp
    .client({ name: "probe-client" })
    .connectWith(agent, (ctx) => ctx.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities } as acp.InitializeRequest));
  assert.ok(seen, "the agent's initialize handler ran");
  return seen.clientCapabilities ?? {};
}
