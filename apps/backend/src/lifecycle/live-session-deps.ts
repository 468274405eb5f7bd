// What a live session needs from the board (live-session.ts): the store, the executor, the
// clarification and notification services, and the manager's callbacks.
import type { AgentActionName, AgentCommand } from "@kandev/protocol";
import type { StartFailure } from "../agents/start-errors.js";
import type { ClarificationService } from "../clarifications/service.js";
import type { TurnEnd } from "../domain/prompt-queue.js";
import type { AgentEventMessage } from "../executor/agentctl-client.js";
import type { LocalExecutor } from "../executor/local-executor.js";
import type { Logger } from "../logger.js";
import type { NotificationService } from "../notifications/service.js";
import type { LiveSession } from "./live-session.js";
import type { SessionLogs } from "./session-logs.js";
import type { SessionSettings } from "./session-settings.js";
import type { LiveStore } from "./store.js";

export interface LiveSessionDeps {
  store: LiveStore;
  executor: LocalExecutor;
  logger: Logger;
  /** Called once the session is over (failed, cancelled, shut down) so the manager forgets it. */
  onGone: (sessionId: string) => void;
  /** The session's agent did something (any event): its idle time starts over. */
  onActivity?: (sessionId: string) => void;
  /** The host's agentctl died under this live session (the manager settles it, see interruption.ts). */
  onAgentctlLost: (live: LiveSession, err: Error) => void;
  /**
   * The session's current turn ended and it waits for input (called once that is committed): the
   * manager sends its next queued prompt, if the queue says so (domain/prompt-queue.ts).
   */
  onTurnEnded?: (live: LiveSession, end: TurnEnd) => void;
  clarifications: ClarificationService;
  notifications: NotificationService;
  logs: SessionLogs;
  /** Where what the agent says about its session (modes, options, commands, usage, title) goes. */
  settings?: SessionSettings;
  /** Why the agent command cannot be run (missing, not executable), or null when it can. */
  checkCommand: (agent: AgentCommand) => StartFailure | null;
  initializeTimeoutMs?: number;
  /** Test seam: sees every request to agentctl (action and params) just before it is sent. */
  onAgentRequest?: (sessionId: string, action: AgentActionName, params: unknown) => void;
  /** Test seam: sees every validated agentctl event before it is handled. */
  onAgentEvent?: (sessionId: string, event: AgentEventMessage) => void;
}
