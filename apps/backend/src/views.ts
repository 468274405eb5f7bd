// Row -> wire shape. Every public object passes its protocol schema on the way out, so a bug that
// would put a malformed object on the wire fails loudly here instead of in a browser.
import {
  AgentProfileSchema,
  SECRET_MASK,
  MessageSchema,
  SessionSchema,
  TaskSchema,
  type AgentProfile,
  type ProfileProblem,
  type Message,
  type QueuedPrompt,
  type Session,
  type Task,
} from "@kandev/protocol";
import { clarificationMessageView, type ClarificationFacts } from "./clarifications/message.js";
import { agentStatusOf, isTurnActive } from "./domain/task-state.js";
import { interruptionOf, isEnded } from "./lifecycle/interruption.js";
import type { ClarificationRow } from "./repos/clarifications.js";
import type { MessageRow } from "./repos/messages.js";
import type { ProfileRow } from "./repos/profiles.js";
import type { QueuedPromptRow } from "./repos/queued-prompts.js";
import type { SessionRow } from "./repos/sessions.js";
import type { TaskRow } from "./repos/tasks.js";

export function toTask(row: TaskRow, latest: SessionRow | undefined): Task {
  return TaskSchema.parse({
    id: row.id,
    title: row.title,
    state: row.state,
    pending_action: row.pendingAction,
    agent_profile_id: row.agentProfileId,
    session_id: latest?.id ?? null,
    session_state: latest?.state ?? null,
    turn_active: isTurnActive(latest?.state ?? null),
    workspace: row.workspace ?? null,
    archived: row.archivedAt !== null,
    session_usage: latest?.usage ?? null,
    session_title: latest?.title ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  });
}

/** A session as read and pushed, with its queued prompts (`queued`, in the order they will be sent). */
export function toSession(row: SessionRow, queued: readonly QueuedPromptRow[]): Session {
  return SessionSchema.parse({
    id: row.id,
    task_id: row.taskId,
    agent_profile_id: row.agentProfileId,
    state: row.state,
    acp_session_id: row.acpSessionId,
    current_turn_id: row.currentTurnId,
    error: row.error,
    agent_status: agentStatusOf(row.state, row.error),
    ended: isEnded(row),
    interruption: interruptionOf(row.error),
    queued_prompts: queued.map(toQueuedPrompt),
    modes: row.modes ?? null,
    config_options: row.configOptions ?? null,
    available_commands: row.availableCommands,
    usage: row.usage ?? null,
    title: row.title ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  });
}

export function toQueuedPrompt(row: QueuedPromptRow): QueuedPrompt {
  return { id: row.id, text: row.text, ...(row.user !== null && { user: row.user }), created_at: row.createdAt };
}

/**
 * A message as read and pushed. A clarification message takes its status, resolution and
 * `requests_input` from its record (`clarification`), their one owner.
 */
export function toMessage(row: MessageRow, clarification?: ClarificationFacts): Message {
  const message = toStoredMessage(row);
  return clarification === undefined ? message : MessageSchema.parse(clarificationMessageView(message, clarification));
}

/** A session's messages as read, each clarification message joined with its record among `records`. */
export function toMessages(rows: readonly MessageRow[], records: readonly ClarificationRow[]): Message[] {
  const byMessage = new Map(records.map((r) => [r.messageId, r]));
  return rows.map((row) => toMessage(row, byMessage.get(row.id)));
}

function toStoredMessage(row: MessageRow): Message {
  return MessageSchema.parse({
    id: row.id,
    session_id: row.sessionId,
    task_id: row.taskId,
    turn_id: row.turnId,
    author_type: row.authorType,
    type: row.type,
    content: row.content,
    requests_input: row.requestsInput,
    metadata: row.metadata,
    created_at: row.createdAt,
  });
}

/** A profile as read, with what keeps its agent from starting here now (agents/profile-check.ts). */
/**
 * A profile's `env` as every API answer shows it: the names, each value replaced by SECRET_MASK.
 * Values are write-only (agents can call the API; a screen can be watched): nobody reads a key back.
 */
export function maskEnv(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(env).map((k) => [k, SECRET_MASK]));
}

export function toProfile(row: ProfileRow, problems: readonly ProfileProblem[]): AgentProfile {
  return AgentProfileSchema.parse({
    id: row.id,
    name: row.name,
    command: row.command,
    ...(row.env !== null && { env: maskEnv(row.env) }),
    ...(row.cwd !== null && { cwd: row.cwd }),
    ...(row.agentId !== null && { agent_id: row.agentId }),
    builtin: row.builtin,
    problems,
    created_at: row.createdAt,
  });
}
