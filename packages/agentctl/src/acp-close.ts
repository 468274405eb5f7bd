// How agentctl names the end of an ACP connection to the operator.

/**
 * Why an ACP connection closed, as said to the operator, and whether the agent's own end of the
 * pipes did it (its stdout ended, or its stdin is closed: EPIPE). Pure.
 */
export function acpCloseFailure(reason: unknown): { text: string; byAgent: boolean } {
  const message = reason instanceof Error ? reason.message : String(reason);
  if (message === "ACP connection closed") return { text: "the agent closed its ACP output but kept running", byAgent: true };
  const code = typeof reason === "object" && reason !== null ? (reason as { code?: unknown }).code : undefined;
  if (code === "EPIPE" || /\bEPIPE\b/.test(message)) return { text: "the agent closed its ACP input (stdin) but kept running", byAgent: true };
  return { text: `the ACP connection failed: ${message}`, byAgent: false };
}
