// What one start of a session's agentctl + agent needs, and the limits of that start.
import type { AgentActionParams } from "@kandev/protocol";

/**
 * How long a start-up request that failed waits for agentctl's `agent.exited`: when the agent dies
 * at once, the request's error can arrive before the exit report that carries the code and stderr.
 */
export const AGENT_EXIT_WAIT_MS = 2000;
/** ACP initialize of a real agent may download a package or log in first; this is the ceiling. */
export const DEFAULT_INITIALIZE_TIMEOUT_MS = 5 * 60_000;

/** Everything one start of agentctl + agent needs. */
export interface StartPlan {
  configure: AgentActionParams<"agent.configure">;
  /** The ACP session's working directory (the profile's cwd), or null for agentctl's default. */
  cwd: string | null;
  /** The first prompt, sent once the ACP session is open. */
  text: string;
  /** Values redacted from this session's agent log. */
  secrets: string[];
  /**
   * Resuming: the ACP session the agent may reload. `announce` (a task started again) adds a status
   * message when the load worked too, so the transcript says either way whether the agent remembers.
   */
  resume?: { acpSessionId: string | null; announce?: boolean };
}

/** The status message of a task started again whose agent reloaded its earlier ACP session. */
export const LOADED_SESSION_NOTE = "The agent reloaded its earlier session (ACP session/load): it remembers earlier turns.";

/** The status message of a resumed session whose agent starts over. */
export const FRESH_SESSION_NOTE = "The agent starts without memory of earlier turns: it cannot reload its earlier session.";
