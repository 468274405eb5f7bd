// Drizzle table definitions. Importing this module never opens a database; drizzle-kit reads it to
// generate the migrations in the repository's drizzle/ folder. Keep it free of relative imports so
// drizzle-kit can load it on its own.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export const agentProfiles = sqliteTable("agent_profiles", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** JSON array of strings: the agent command and its arguments. */
  command: text("command", { mode: "json" }).$type<string[]>().notNull(),
  env: text("env", { mode: "json" }).$type<Record<string, string>>(),
  cwd: text("cwd"),
  /** Sent to agentctl as `agent_id` (capabilities `_meta` variant); null means the profile id. */
  agentId: text("agent_id"),
  builtin: integer("builtin", { mode: "boolean" }).notNull().default(false),
  createdAt: text("created_at").notNull().default(now),
});

export const tasks = sqliteTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    /** TaskState; derived from the latest session's state and pending action (domain/task-state.ts). */
    state: text("state").notNull(),
    /** PendingAction ("clarification" | "permission") or null, recomputed on every relevant event (A4). */
    pendingAction: text("pending_action"),
    agentProfileId: text("agent_profile_id").notNull(),
    /** The task's git worktree (workspaces/), null for a task with no repository. Owned by the task. */
    workspace: text("workspace", { mode: "json" }).$type<{
      repository_id: string;
      base_branch: string;
      base_commit: string;
      branch: string;
      path: string;
    }>(),
    /** When the operator archived the task (off the board, kept whole), null while on the board. */
    archivedAt: text("archived_at"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("tasks_state_idx").on(t.state), index("tasks_created_idx").on(t.createdAt)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    taskId: text("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    agentProfileId: text("agent_profile_id").notNull(),
    state: text("state").notNull(),
    acpSessionId: text("acp_session_id"),
    currentTurnId: text("current_turn_id"),
    error: text("error"),
    // What the agent said about its session (protocol session-state.ts; domain/session-state.ts).
    modes: text("modes", { mode: "json" }).$type<{
      current_mode_id: string;
      available_modes: Array<{ id: string; name: string; description?: string }>;
    }>(),
    configOptions: text("config_options", { mode: "json" }).$type<Array<Record<string, unknown>>>(),
    availableCommands: text("available_commands", { mode: "json" })
      .$type<Array<{ name: string; description: string; input_hint?: string }>>()
      .notNull()
      .default(sql`'[]'`),
    usage: text("usage", { mode: "json" }).$type<{ used: number; size: number; cost?: { amount: number; currency: string } }>(),
    title: text("title"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [index("sessions_task_idx").on(t.taskId, t.createdAt), index("sessions_state_idx").on(t.state)],
);

export const turns = sqliteTable(
  "turns",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    startedAt: text("started_at").notNull().default(now),
    endedAt: text("ended_at"),
    /** ACP stop reason (`end_turn`, `cancelled`, ...) or `error`. */
    stopReason: text("stop_reason"),
    error: text("error"),
  },
  (t) => [index("turns_session_idx").on(t.sessionId)],
);

export const messages = sqliteTable(
  "messages",
  {
    /** Insertion order; `created_at` alone ties within a millisecond. */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    taskId: text("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    turnId: text("turn_id").references(() => turns.id, { onDelete: "set null" }),
    authorType: text("author_type").notNull(),
    type: text("type").notNull(),
    content: text("content").notNull(),
    requestsInput: integer("requests_input", { mode: "boolean" }).notNull().default(false),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [
    index("messages_session_idx").on(t.sessionId, t.seq),
    index("messages_turn_idx").on(t.turnId),
    // Only the messages still requesting input (a handful at most), so recomputing a task's pending
    // action costs the same on the thousandth message of a turn as on the first. Queries must say
    // `requests_input = 1` literally for SQLite to use it (repos/messages.ts listOpenRequests).
    index("messages_open_idx").on(t.sessionId, t.turnId).where(sql`requests_input = 1`),
  ],
);

export const runtimeFlagOverrides = sqliteTable("runtime_flag_overrides", {
  key: text("key").primaryKey(),
  value: integer("value", { mode: "boolean" }).notNull(),
  updatedAt: text("updated_at").notNull().default(now),
});

/**
 * One row per claimed notification, so a retried event never notifies twice: a turn's
 * `session.turn_finished`. A clarification's notification needs none (F9 holds through the
 * clarification's own primary key, see NotificationService.newClarificationRequested); boards
 * created before that keep the rows they wrote.
 */
export const notificationDeliveries = sqliteTable(
  "notification_deliveries",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    /** What makes the notification unique within its kind: the turn id (older rows: a pending id). */
    dedupKey: text("dedup_key").notNull(),
    taskId: text("task_id").notNull(),
    sessionId: text("session_id").notNull(),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("notification_deliveries_kind_dedup_idx").on(t.kind, t.dedupKey)],
);

/**
 * One structured question bundle an agent asked (DECISIONS §3, spec "the backend half"). The id is
 * caller-supplied: agentctl's pending id verbatim for elicitations (AC-60), a minted UUID for the
 * kandev tool; inserting an id that exists fails (never an overwrite). `status` starts `pending`
 * and changes once; the clarification_request message (`message_id`) mirrors it.
 */
export const clarifications = sqliteTable(
  "clarifications",
  {
    pendingId: text("pending_id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    taskId: text("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    turnId: text("turn_id").references(() => turns.id, { onDelete: "set null" }),
    messageId: text("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    /** ClarificationSource: "elicitation" | "kandev_tool". */
    source: text("source").notNull(),
    /** The agentctl run that holds the question (one per LiveSession); its end settles the record. */
    executionId: text("execution_id"),
    toolCallId: text("tool_call_id"),
    message: text("message").notNull(),
    /** JSON array of protocol Questions, exactly as shown to the operator. */
    questions: text("questions", { mode: "json" }).$type<unknown[]>().notNull(),
    deadline: text("deadline"),
    /** ClarificationStatus. */
    status: text("status").notNull(),
    /** JSON protocol Resolution once settled. */
    resolution: text("resolution", { mode: "json" }).$type<Record<string, unknown>>(),
    /** Same-questions identity, ask-tool records only (elicitations bypass dedup, D4). */
    dedupKey: text("dedup_key"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    index("clarifications_session_status_idx").on(t.sessionId, t.status),
    index("clarifications_execution_idx").on(t.executionId, t.status),
    // Only ask-tool records carry a dedup key; elicitations (never deduplicated, D4) stay out
    // of the index, a B-tree write less per question. `dedup_key = ?` implies the condition.
    index("clarifications_dedup_idx").on(t.sessionId, t.dedupKey).where(sql`dedup_key IS NOT NULL`),
  ],
);

/** Which notifications go out; a missing row means the setting's default. */
export const notificationSettings = sqliteTable("notification_settings", {
  key: text("key").primaryKey(),
  enabled: integer("enabled", { mode: "boolean" }).notNull(),
  updatedAt: text("updated_at").notNull().default(now),
});

/** A git work tree the operator registered; tasks on it get worktrees of their own (workspaces/). */
export const repositories = sqliteTable("repositories", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** The work tree's top folder, resolved (symlinks followed); one registration per folder. */
  path: text("path").notNull().unique(),
  defaultBranch: text("default_branch").notNull(),
  createdAt: text("created_at").notNull().default(now),
});

/**
 * Prompts the operator sent while a turn ran (or the agent started), waiting to be sent as the
 * session's next turns (lifecycle/prompt-queue.ts). Durable, so a board restart keeps them. Sent in
 * `send_now` first, then `seq` order; a row leaves the table when its prompt is sent or cancelled.
 */
export const queuedPrompts = sqliteTable(
  "queued_prompts",
  {
    /** Order of arrival; `created_at` alone ties within a millisecond. */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    /** The operator asked to send it now: it goes before the others once the cancelled turn ends. */
    sendNow: integer("send_now", { mode: "boolean" }).notNull().default(false),
    /** Who sent it (a username; "local" on a board without sign-in); null for rows from before accounts. */
    user: text("user"),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [index("queued_prompts_session_idx").on(t.sessionId, t.seq)],
);

/** A person who signs in (auth/). `password_hash` is scrypt's (auth/password.ts), never the password. */
export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  username: text("username").notNull().unique(),
  /** Role: "admin" | "operator" (auth/roles.ts). */
  role: text("role").notNull(),
  passwordHash: text("password_hash").notNull(),
  createdAt: text("created_at").notNull().default(now),
});

/**
 * A signed-in browser (the `kandev_session` cookie). Only the SHA-256 of the cookie's random value
 * is kept, so a copy of the database opens no session. Named apart from the agent `sessions` table.
 */
export const authSessions = sqliteTable(
  "auth_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull().default(now),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("auth_sessions_user_idx").on(t.userId)],
);

/** An API token (`Authorization: Bearer kdv_...`); acts as its owner. Only its SHA-256 is kept. */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: text("created_at").notNull().default(now),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [index("api_tokens_user_idx").on(t.userId)],
);
