// The parts of a session controller that are not its state machine: its options, its turn record,
// and the small helpers its actions share (session-controller.ts).
import type { z } from "zod";
import { ProtocolError, type AgentEventName, type InitializeResultSchema } from "@kandev/protocol";
import { acpErrorInfo } from "./acp-client.js";
import type { BackendRequests } from "./backend-requests.js";
import type { Timeouts } from "./timeouts.js";

export interface SessionControllerOptions {
  /** Sends one event to the backend, tagged with this controller's session. */
  send: (event: AgentEventName, payload: unknown) => void;
  /** Timeouts from agentctl's env; agent.configure may override them. */
  baseTimeouts: Timeouts;
  /** Environment the agent starts from (agentctl's env minus its secrets). */
  baseAgentEnv: Record<string, string>;
  log: (message: string) => void;
  /**
   * agentctl -> backend requests (`kandev.ask_user_question`). Defaults to one with no backend,
   * so every call fails at once with NOT_CONNECTED (in-process tests without a stream).
   */
  backend?: BackendRequests;
  /** How long shutdown lets a cancelled turn finish before stopping the agent. */
  shutdownTurnGraceMs?: number;
  /** SIGTERM -> SIGKILL grace when stopping the agent. */
  agentKillGraceMs?: number;
}

/** ACP stop reasons are short words (end_turn, cancelled, ...); anything longer is not one. */
export const MAX_STOP_REASON_CHARS = 64;
/** How long an agent that closed its stdout has to exit before agentctl stops it. */
export const ACP_EOF_GRACE_MS = 2000;

export interface Turn {
  readonly turnId: string;
  readonly sessionId: string;
  ended: boolean;
  idleTimer: NodeJS.Timeout | null;
  readonly done: Promise<void>;
  markDone: () => void;
}

export type InitializeResult = z.infer<typeof InitializeResultSchema>;

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}

export function acpFailure(method: string, err: unknown): ProtocolError {
  const info = acpErrorInfo(err);
  return new ProtocolError("INTERNAL_ERROR", `the agent failed ${method}: ${info.message}`, { acp_code: info.code });
}
