import { z } from "zod";
import { QuestionSchema } from "./questions.js";
import { PendingActionSchema, SessionStateSchema, TaskStateSchema } from "./states.js";
import { TaskWorkspaceSchema } from "./workspaces.js";
import { AvailableCommandSchema, SessionConfigOptionSchema, SessionModesSchema, SessionUsageSchema } from "./session-state.js";

/** JSON field names are snake_case on every wire (REST and WebSocket). */

/**
 * Something about a profile that keeps its agent from starting on this machine now (its command is
 * not found or not executable, its working directory is missing or not a folder), found when it is
 * read. Saving such a profile is allowed (install the agent later), like a preset that is missing.
 */
export const ProfileProblemSchema = z.object({
  path: z.enum(["command", "cwd"]),
  code: z.enum(["command_not_found", "command_not_executable", "cwd_missing", "cwd_not_directory"]),
  message: z.string(),
});
export type ProfileProblem = z.infer<typeof ProfileProblemSchema>;

export const AgentProfileSchema = z.object({
  id: z.string(),
  name: z.string(),
  command: z.array(z.string()).min(1),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  /** Sent to agentctl as `agent_id` (capabilities `_meta` variant); absent means the profile id. */
  agent_id: z.string().optional(),
  builtin: z.boolean(),
  /** Why the agent cannot start here right now; empty when it can. */
  problems: z.array(ProfileProblemSchema),
  created_at: z.string(),
});
export type AgentProfile = z.infer<typeof AgentProfileSchema>;

export const TaskSchema = z.object({
  id: z.string(),
  title: z.string(),
  state: TaskStateSchema,
  pending_action: PendingActionSchema,
  agent_profile_id: z.string(),
  /** The task's latest session, if any. */
  session_id: z.string().nullable(),
  session_state: SessionStateSchema.nullable(),
  /** True while the latest session's turn is running. */
  turn_active: z.boolean(),
  /** The task's own git worktree, or null for a task with no repository. */
  workspace: TaskWorkspaceSchema.nullable(),
  /** Archived tasks are left off the board (and out of `GET /tasks` unless `?archived=true`). */
  archived: z.boolean(),
  /** The latest session's `usage` (read from it), for the card. */
  session_usage: SessionUsageSchema.nullable(),
  /** The latest session's `title` (read from it). */
  session_title: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Task = z.infer<typeof TaskSchema>;

/**
 * Whether the session's agent process is there: `running` while it starts or works on a turn,
 * `idle` while it waits for the next prompt, `closed` once it was stopped (idle timeout, close, a
 * restart of the board or agentctl, the session's end). A closed session that can still resume
 * starts its agent again on its next prompt.
 */
export const AgentStatusSchema = z.enum(["running", "idle", "closed"]);
export type AgentStatus = z.infer<typeof AgentStatusSchema>;

/**
 * Why a session's agent went away under it without the agent ending it, as a stable code (the
 * session's `error` says the same in English): the board restarted, its agentctl died, the idle
 * timeout or the operator closed it, or its task was moved back from Done.
 */
export const InterruptionCodeSchema = z.enum(["backend_restarted", "agentctl_stopped", "idle_timeout", "session_closed", "reopened"]);
export type InterruptionCode = z.infer<typeof InterruptionCodeSchema>;

/**
 * Why a session failed to start or its agent died, as a code with its values (the `failure` of its
 * `error` message's metadata); the message's `reason` says the same in English. Params are
 * strings: `cwd`; `command` and `hint` (an install command); `detail` (agentctl's own words);
 * `phase` (configure | initialize | session), `exit_code` or `signal`, `last` (the agent's last
 * stderr line); `seconds`.
 */
export const SessionFailureCodeSchema = z.enum([
  "cwd_missing",
  "cwd_not_directory",
  "command_not_found",
  "command_not_executable",
  "command_not_startable",
  "exited_during_start",
  "initialize_timeout",
  "start_failed",
  "exited",
]);
export type SessionFailureCode = z.infer<typeof SessionFailureCodeSchema>;

export const SessionFailureSchema = z.object({ code: SessionFailureCodeSchema, params: z.record(z.string(), z.string()) });
export type SessionFailure = z.infer<typeof SessionFailureSchema>;

/**
 * A prompt the operator sent while the session's turn ran (or its agent started): it waits, in
 * the database, until a turn ends and it is sent as the next one (docs/API.md "Prompts while a
 * turn runs").
 */
export const QueuedPromptSchema = z.object({
  id: z.string(),
  text: z.string(),
  /** Who sent it ("local" on a board without sign-in); absent on prompts queued before accounts. */
  user: z.string().optional(),
  created_at: z.string(),
});
export type QueuedPrompt = z.infer<typeof QueuedPromptSchema>;

export const SessionSchema = z.object({
  id: z.string(),
  task_id: z.string(),
  agent_profile_id: z.string(),
  state: SessionStateSchema,
  acp_session_id: z.string().nullable(),
  current_turn_id: z.string().nullable(),
  error: z.string().nullable(),
  agent_status: AgentStatusSchema,
  /** The session takes no more prompts: it ended and cannot be resumed (the API answers 409). */
  ended: z.boolean(),
  /** Set while `error` is an interruption: its code, for clients that word it themselves. */
  interruption: InterruptionCodeSchema.nullable(),
  /** Prompts waiting for the running turn to end, in the order they will be sent. */
  queued_prompts: z.array(QueuedPromptSchema),
  /** The agent's modes and the current one (ACP session modes), or null when it has none. */
  modes: SessionModesSchema.nullable(),
  /** The agent's config options (the model, typically), or null when it has none. */
  config_options: z.array(SessionConfigOptionSchema).nullable(),
  /** The slash commands the agent offers now. */
  available_commands: z.array(AvailableCommandSchema),
  /** Context window used and cost, as the agent last said; null before it said. */
  usage: SessionUsageSchema.nullable(),
  /** The agent's title for the session (ACP session_info_update), or null. */
  title: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Session = z.infer<typeof SessionSchema>;

export const MessageTypeSchema = z.enum(["text", "tool_call", "thought", "error", "status", "permission_request", "clarification_request", "plan"]);
export type MessageType = z.infer<typeof MessageTypeSchema>;

export const MessageSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  task_id: z.string(),
  turn_id: z.string().nullable(),
  author_type: z.enum(["user", "agent"]),
  type: MessageTypeSchema,
  content: z.string(),
  requests_input: z.boolean(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type Message = z.infer<typeof MessageSchema>;

export const ClarificationSourceSchema = z.enum(["elicitation", "kandev_tool"]);
export type ClarificationSource = z.infer<typeof ClarificationSourceSchema>;

export const ClarificationStatusSchema = z.enum(["pending", "answered", "declined", "cancelled", "timed_out", "agent_disconnected"]);
export type ClarificationStatus = z.infer<typeof ClarificationStatusSchema>;

export const ResolutionSchema = z.object({
  /** Who or what settled it: operator, agent_cancelled, turn_cancelled, deadline, shutdown, agent_disconnected, ... */
  by: z.string(),
  at: z.string(),
  answers: z.unknown().optional(),
  /** The reason an operator gave with a Skip. */
  reject_reason: z.string().optional(),
  /** The operator who answered ("local" on a board without sign-in). */
  user: z.string().optional(),
});
export type Resolution = z.infer<typeof ResolutionSchema>;

export const ClarificationSchema = z.object({
  pending_id: z.string(),
  session_id: z.string(),
  task_id: z.string(),
  source: ClarificationSourceSchema,
  status: ClarificationStatusSchema,
  resolution: ResolutionSchema.nullable().optional(),
  deadline: z.string().nullable().optional(),
  message: z.string(),
  questions: z.array(QuestionSchema),
});
export type Clarification = z.infer<typeof ClarificationSchema>;

export const RuntimeFlagSchema = z.object({
  key: z.string(),
  env_var: z.string(),
  kind: z.enum(["feature"]),
  stability: z.enum(["experimental", "beta", "stable"]),
  risk: z.enum(["low", "medium", "high"]),
  restart_required: z.boolean(),
  mutable: z.boolean(),
  /** The value in force now (resolved at startup). */
  value: z.boolean(),
  source: z.enum(["env", "override", "profile"]),
  /** The stored override, if any; takes effect at next start when restart_required. */
  override: z.boolean().nullable(),
});
export type RuntimeFlag = z.infer<typeof RuntimeFlagSchema>;

export const NotificationKindSchema = z.enum(["session.clarification_requested", "session.turn_finished"]);
export type NotificationKind = z.infer<typeof NotificationKindSchema>;

export const NotificationSchema = z.object({
  id: z.string(),
  kind: NotificationKindSchema,
  task_id: z.string(),
  session_id: z.string(),
  /** Names the task; never carries the question text (DECISIONS F9). */
  title: z.string(),
  body: z.string(),
  pending_id: z.string().nullable(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof NotificationSchema>;
