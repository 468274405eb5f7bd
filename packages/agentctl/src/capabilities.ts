/**
 * The ACP `clientCapabilities` agentctl advertises in `initialize`.
 *
 * Flag off: byte-identical to the pre-elicitation baseline for each agent-scoped `_meta` variant
 * (pinned by test/fixtures/capabilities/*.json, AC-02). Flag on: exactly that plus
 * `elicitation: {form: {}}` (AC-01, AC-02a). `url` is never advertised: advertising form alone
 * means the agent never sends url mode nor `elicitation/complete` (spec Verified inputs B). The
 * value must be the object `{}`: `form: true` is silently dropped by the ACP SDK's schema.
 */
import type { Features } from "@kandev/protocol";

/** Agent id whose `_meta` differs from every other agent's. */
export const CURSOR_AGENT_ID = "cursor-agent";

/**
 * Client capabilities as sent on the wire (JSON-serialisable). A type alias, not an interface, so
 * it stays assignable to `Record<string, unknown>` as the placeholder's return type was.
 */
export type ClientCapabilitiesJson = {
  _meta: Record<string, boolean>;
  elicitation?: { form: Record<string, never> };
};

/**
 * The agent-scoped `_meta`. Every agent gets `terminal_output`; cursor-agent also gets
 * `parameterizedModelPicker`, which it reads once per session to pick its model picker mode. Keys
 * are written in sorted order so the serialisation is stable. A fresh object per call: a shared map
 * would let one session's handshake leak into another's.
 */
function metaFor(agentId: string): Record<string, boolean> {
  return agentId === CURSOR_AGENT_ID ? { parameterizedModelPicker: true, terminal_output: true } : { terminal_output: true };
}

/** Builds the `clientCapabilities` for `initialize`, scoped by agent id and gated by the flag. */
export function buildClientCapabilities(agentId: string, features: Features): ClientCapabilitiesJson {
  const capabilities: ClientCapabilitiesJson = { _meta: metaFor(agentId) };
  if (features.acpElicitation) capabilities.elicitation = { form: {} };
  return capabilities;
}
