import { ProtocolError } from "@kandev/protocol";
import { formatDuration } from "./duration.js";

/** agentctl's two timeouts, in milliseconds. */
export interface Timeouts {
  /** How long a pending elicitation waits for the operator before agentctl declines it. */
  elicitationAnswerMs: number;
  /** How long a turn may see no ACP traffic from the agent before agentctl gives up on it. */
  acpIdleMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { elicitationAnswerMs: 55 * 60_000, acpIdleMs: 60 * 60_000 };

/**
 * Returns why the pair is unusable, or null. The answer deadline must be strictly below the idle
 * timeout so a decline after the deadline is agentctl's own act, not a connection teardown (AC-64).
 */
export function timeoutsProblem(t: Timeouts): string | null {
  if (t.elicitationAnswerMs < t.acpIdleMs) return null;
  return (
    `the elicitation answer timeout (${formatDuration(t.elicitationAnswerMs)}) must be strictly below ` +
    `the ACP idle timeout (${formatDuration(t.acpIdleMs)})`
  );
}

/** Applies `agent.configure` overrides over the base timeouts; throws VALIDATION_ERROR when the result is unusable. */
export function resolveTimeouts(
  base: Timeouts,
  override: { elicitation_answer_ms?: number | undefined; acp_idle_ms?: number | undefined },
): Timeouts {
  const t: Timeouts = {
    elicitationAnswerMs: override.elicitation_answer_ms ?? base.elicitationAnswerMs,
    acpIdleMs: override.acp_idle_ms ?? base.acpIdleMs,
  };
  const problem = timeoutsProblem(t);
  if (problem !== null) {
    throw new ProtocolError("VALIDATION_ERROR", problem, {
      elicitation_answer_ms: t.elicitationAnswerMs,
      acp_idle_ms: t.acpIdleMs,
    });
  }
  return t;
}
