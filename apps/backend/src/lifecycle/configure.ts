import type { AgentActionParams, Features } from "@kandev/protocol";

export interface ConfigureInput {
  profile: { id: string; command: string[]; env: Record<string, string> | null; cwd: string | null; agentId?: string | null };
  features: Features;
  timeouts: { elicitationAnswerMs?: number; acpIdleMs?: number };
}

/**
 * The `agent.configure` payload for one session: the profile's command, the flags resolved at
 * startup (DECISIONS F5) and the timeouts the operator set (F13a). Pure, so the exact payload is
 * tested directly.
 */
export function buildConfigureParams(input: ConfigureInput): AgentActionParams<"agent.configure"> {
  const { profile, features, timeouts } = input;
  return {
    agent: {
      command: [...profile.command],
      ...(profile.env !== null && { env: { ...profile.env } }),
      ...(profile.cwd !== null && { cwd: profile.cwd }),
    },
    // A profile made for a real agent names its capabilities variant (e.g. claude-acp); others use their id.
    agent_id: profile.agentId ?? profile.id,
    features: { ...features },
    timeouts: {
      ...(timeouts.elicitationAnswerMs !== undefined && { elicitation_answer_ms: timeouts.elicitationAnswerMs }),
      ...(timeouts.acpIdleMs !== undefined && { acp_idle_ms: timeouts.acpIdleMs }),
    },
  };
}
