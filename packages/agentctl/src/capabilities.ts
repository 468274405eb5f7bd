// PLACEHOLDER owned by the elicitation work (issue 3): replaced with fixture-pinned capabilities.
import type { Features } from "@kandev/protocol";

export function buildClientCapabilities(_agentId: string, _features: Features): Record<string, unknown> {
  return { _meta: { terminal_output: true } };
}
