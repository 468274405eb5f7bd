import {
  AgentPresetSchema,
  AgentProfileSchema,
  BranchesResultSchema,
  ConfigOptionsResultSchema,
  type ConfigOptionsResult,
  type ConfigValue,
  MergeResultSchema,
  PushResultSchema,
  RepositorySchema,
  SessionPlanSchema,
  TaskChangesSchema,
  type BranchesResult,
  type CreateRepositoryBody,
  type MergeBody,
  type MergeResult,
  type PushResult,
  type Repository,
  type TaskChanges,
  ApiErrorSchema,
  ClarificationRespondResultSchema,
  NotificationSettingsSchema,
  RuntimeFlagSchema,
  MessageSchema,
  OkResultSchema,
  PromptAcceptedSchema,
  SessionLogsSchema,
  SessionSchema,
  SuccessResultSchema,
  TaskSchema,
  type AgentPreset,
  type AgentProfile,
  type ClarificationAnswer,
  type ClarificationRespondResult,
  type CreateAgentProfileBody,
  type CreateProfileFromPresetBody,
  type CreateTaskBody,
  type PatchAgentProfileBody,
  type PatchTaskBody,
  type PromptAccepted,
  type NotificationSettings,
  type PatchNotificationSettingsBody,
  type RuntimeFlag,
  type Message,
  type Session,
  type SessionLogs,
  type Task,
  ApiTokenSchema,
  CreatedTokenSchema,
  AuthStatusSchema,
  HealthSchema,
  MeSchema,
  SignedInSchema,
  UserSchema,
  type ApiToken,
  type ChangePasswordBody,
  type CreateUserBody,
  type CreatedToken,
  type LoginBody,
  type SetupBody,
  type AuthStatus,
  type Health,
  type Me,
  type SignedIn,
  type User,
} from "@kandev/protocol";
import type { Page } from "./paged-list";

/** Anything with zod's `parse`, so responses are validated without this app depending on zod. */
interface Parser<T> {
  parse(data: unknown): T;
}

/** One problem with one field, as the API's VALIDATION_ERROR lists them. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** A failed API call, with the API's error code kept intact (or NETWORK/BAD_RESPONSE from here). */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  /** A 429's `Retry-After`, in seconds (null when absent). */
  readonly retryAfterSeconds: number | null;
  constructor(status: number, code: string, message: string, details?: unknown, retryAfterSeconds: number | null = null) {
    super(message);
    this.name = "ApiRequestError";
    this.status = status;
    this.code = code;
    this.details = details;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The per-field problems of a VALIDATION_ERROR (empty for anything else). */
  fieldProblems(): FieldProblem[] {
    if (this.code !== "VALIDATION_ERROR" || !Array.isArray(this.details)) return [];
    return this.details.flatMap((d: unknown) => {
      if (typeof d !== "object" || d === null) return [];
      const { path, message } = d as { path?: unknown; message?: unknown };
      return typeof message === "string" ? [{ path: typeof path === "string" ? path : "", message }] : [];
    });
  }
}

const API = "/api/v1";

async function call<T>(path: string, parser: Parser<T>, init: RequestInit = {}): Promise<T> {
  return (await exchange(path, parser, init)).value;
}

/** Tasks per board page: more than a screen holds, few enough that 10,000 tasks open in about a second. */
export const TASK_PAGE_SIZE = 100;
/** Messages per transcript page: the end of a long transcript first, earlier pages on request. */
export const MESSAGE_PAGE_SIZE = 100;

/** A page of a paged list (docs/API.md "Paged lists"), relative to the API's root. */
function pagePath(path: string, cursor: string | null, limit: number): string {
  return `${path}?${new URLSearchParams({ limit: String(limit), ...(cursor !== null && { cursor }) })}`;
}

/** The URL of the board's first page, which the board page preloads with its scripts. */
export const FIRST_TASKS_PAGE_URL = `${API}${pagePath("/tasks", null, TASK_PAGE_SIZE)}`;

/** One page of a paged list: the items, and the next page's cursor from `X-Next-Cursor`. */
async function callPage<T>(path: string, parser: Parser<T[]>, cursor: string | null, limit: number, signal?: AbortSignal): Promise<Page<T>> {
  const { value, res } = await exchange(pagePath(path, cursor, limit), parser, { signal });
  return { items: value, next: res.headers.get("X-Next-Cursor") };
}

async function exchange<T>(path: string, parser: Parser<T>, init: RequestInit): Promise<{ value: T; res: Response }> {
  let res: Response;
  try {
    res = await fetch(`${API}${path}`, {
      ...init,
      headers: { accept: "application/json", ...(init.body ? { "content-type": "application/json" } : {}) },
      cache: "no-store",
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiRequestError(0, "NETWORK", err instanceof Error ? err.message : String(err));
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const retryAfter = Number.parseInt(res.headers.get("Retry-After") ?? "", 10);
    const wait = Number.isFinite(retryAfter) ? retryAfter : null;
    const parsed = ApiErrorSchema.safeParse(body);
    if (parsed.success) {
      const { code, message, details } = parsed.data.error;
      throw new ApiRequestError(res.status, code, message, details, wait);
    }
    throw new ApiRequestError(res.status, "BAD_RESPONSE", `HTTP ${res.status}`, undefined, wait);
  }
  try {
    return { value: parser.parse(body), res };
  } catch {
    throw new ApiRequestError(res.status, "BAD_RESPONSE", `unexpected response from ${path}`);
  }
}

const post = (body: unknown, signal?: AbortSignal): RequestInit => ({
  method: "POST",
  body: JSON.stringify(body),
  signal,
});

const patch = (body: unknown): RequestInit => ({ method: "PATCH", body: JSON.stringify(body) });

const CreatedSchema: Parser<{ task: Task; session: Session }> = {
  parse(data) {
    const { task, session } = (data ?? {}) as { task?: unknown; session?: unknown };
    return { task: TaskSchema.parse(task), session: SessionSchema.parse(session) };
  },
};

/** The public REST API (docs/API.md), same origin; every response is validated by its schema. */
export const api = {
  /** One page of the board, newest first; `cursor` null for the first. */
  listTasksPage: (cursor: string | null, limit: number, signal?: AbortSignal): Promise<Page<Task>> =>
    callPage("/tasks", TaskSchema.array(), cursor, limit, signal),
  /** The archived tasks (left off the board). */
  listArchivedTasks: (signal?: AbortSignal): Promise<Task[]> => call("/tasks?archived=true", TaskSchema.array(), { signal }),
  /** Rename, move (COMPLETED / REVIEW) or archive/restore a task. */
  patchTask: (taskId: string, body: PatchTaskBody): Promise<Task> => call(`/tasks/${encodeURIComponent(taskId)}`, TaskSchema, patch(body)),
  getTask: (id: string, signal?: AbortSignal): Promise<Task> => call(`/tasks/${encodeURIComponent(id)}`, TaskSchema, { signal }),
  /** A task's sessions, oldest first (more than one after "Start again"). */
  listTaskSessions: (taskId: string, signal?: AbortSignal): Promise<Session[]> =>
    call(`/tasks/${encodeURIComponent(taskId)}/sessions`, SessionSchema.array(), { signal }),
  getSession: (id: string, signal?: AbortSignal): Promise<Session> => call(`/sessions/${encodeURIComponent(id)}`, SessionSchema, { signal }),
  /** One page of a transcript, oldest first within it; the first page is its end, each next one earlier. */
  listMessagesPage: (sessionId: string, cursor: string | null, limit: number, signal?: AbortSignal): Promise<Page<Message>> =>
    callPage(`/sessions/${encodeURIComponent(sessionId)}/messages`, MessageSchema.array(), cursor, limit, signal),
  /** The session's newest plan message, however far back in the transcript (null before any). */
  getSessionPlan: (sessionId: string, signal?: AbortSignal): Promise<Message | null> =>
    call(`/sessions/${encodeURIComponent(sessionId)}/plan`, SessionPlanSchema, { signal }).then((r) => r.plan),
  /** The agent's stderr lines the board keeps for a session (redacted), oldest first. */
  getSessionLogs: (sessionId: string, signal?: AbortSignal): Promise<SessionLogs> =>
    call(`/sessions/${encodeURIComponent(sessionId)}/logs`, SessionLogsSchema, { signal }),
  listAgentProfiles: (signal?: AbortSignal): Promise<AgentProfile[]> => call("/agent-profiles", AgentProfileSchema.array(), { signal }),
  createTask: (body: CreateTaskBody): Promise<{ task: Task; session: Session }> => call("/tasks", CreatedSchema, post(body)),
  /** Starts a turn (`{turn_id}`), or queues the prompt while a turn runs (`{queued}`). */
  prompt: (sessionId: string, text: string): Promise<PromptAccepted> =>
    call(`/sessions/${encodeURIComponent(sessionId)}/prompt`, PromptAcceptedSchema, post({ text })),
  /** Withdraws a queued prompt before it is sent. */
  cancelQueuedPrompt: (sessionId: string, queuedId: string): Promise<void> =>
    call(`/sessions/${encodeURIComponent(sessionId)}/queued-prompts/${encodeURIComponent(queuedId)}`, NoContent, { method: "DELETE" }),
  /** Sends a queued prompt now: the running turn is cancelled and it goes first (or at once when none runs). */
  sendQueuedPromptNow: (sessionId: string, queuedId: string): Promise<PromptAccepted> =>
    call(`/sessions/${encodeURIComponent(sessionId)}/queued-prompts/${encodeURIComponent(queuedId)}/send-now`, PromptAcceptedSchema, post({})),
  /** "Start again": a new session for a failed or cancelled task (the last prompt, unless `prompt`). */
  restartTask: (taskId: string, prompt?: string): Promise<{ task: Task; session: Session }> =>
    call(`/tasks/${encodeURIComponent(taskId)}/restart`, CreatedSchema, post(prompt === undefined ? {} : { prompt })),
  /** Stops the agent of a session waiting for its next prompt; a later prompt resumes it. */
  /** Switches the session's mode through the agent (POST /sessions/:id/mode). */
  setSessionMode: (sessionId: string, modeId: string): Promise<Session> =>
    call(`/sessions/${encodeURIComponent(sessionId)}/mode`, SessionSchema, post({ mode_id: modeId })),
  /** Sets one of the session's config options (the model) through the agent. */
  setSessionConfigOption: (sessionId: string, configId: string, value: ConfigValue): Promise<ConfigOptionsResult> =>
    call(`/sessions/${encodeURIComponent(sessionId)}/config-options`, ConfigOptionsResultSchema, post({ config_id: configId, value })),
  closeSession: (sessionId: string): Promise<Session> => call(`/sessions/${encodeURIComponent(sessionId)}/close`, SessionSchema, post({})),
  cancel: (sessionId: string): Promise<{ ok: true }> => call(`/sessions/${encodeURIComponent(sessionId)}/cancel`, OkResultSchema, post({})),
  respondPermission: (sessionId: string, pendingId: string, answer: { option_id: string } | { cancelled: true }): Promise<{ success: true }> =>
    call(`/sessions/${encodeURIComponent(sessionId)}/permissions/${encodeURIComponent(pendingId)}/respond`, SuccessResultSchema, post(answer)),
  /** Answers (or, with `rejected: true`, skips) a clarification. Errors keep their HTTP status and code. */
  respondClarification: (pendingId: string, answer: ClarificationAnswer): Promise<ClarificationRespondResult> =>
    call(`/clarifications/${encodeURIComponent(pendingId)}/respond`, ClarificationRespondResultSchema, post(answer)),
  createAgentProfile: (body: CreateAgentProfileBody): Promise<AgentProfile> => call("/agent-profiles", AgentProfileSchema, post(body)),
  updateAgentProfile: (id: string, body: PatchAgentProfileBody): Promise<AgentProfile> =>
    call(`/agent-profiles/${encodeURIComponent(id)}`, AgentProfileSchema, patch(body)),
  deleteAgentProfile: (id: string): Promise<void> => call(`/agent-profiles/${encodeURIComponent(id)}`, NoContent, { method: "DELETE" }),
  /** Well-known ACP agents, with whether each can be found on the board's machine right now. */
  listAgentPresets: (signal?: AbortSignal): Promise<AgentPreset[]> => call("/agent-presets", AgentPresetSchema.array(), { signal }),
  createProfileFromPreset: (body: CreateProfileFromPresetBody): Promise<AgentProfile> =>
    call("/agent-profiles/from-preset", AgentProfileSchema, post(body)),
  listRuntimeFlags: (signal?: AbortSignal): Promise<RuntimeFlag[]> => call("/runtime-flags", RuntimeFlagSchema.array(), { signal }),
  /** Stores an override for the next start (`null` clears it). */
  setRuntimeFlag: (key: string, value: boolean | null): Promise<RuntimeFlag> =>
    call(`/runtime-flags/${encodeURIComponent(key)}`, RuntimeFlagSchema, patch({ value })),
  getNotificationSettings: (signal?: AbortSignal): Promise<NotificationSettings> =>
    call("/notification-settings", NotificationSettingsSchema, { signal }),
  updateNotificationSettings: (body: PatchNotificationSettingsBody): Promise<NotificationSettings> =>
    call("/notification-settings", NotificationSettingsSchema, patch(body)),
  listRepositories: (signal?: AbortSignal): Promise<Repository[]> => call("/repositories", RepositorySchema.array(), { signal }),
  addRepository: (body: CreateRepositoryBody): Promise<Repository> => call("/repositories", RepositorySchema, post(body)),
  removeRepository: (id: string): Promise<void> => call(`/repositories/${encodeURIComponent(id)}`, NoContent, { method: "DELETE" }),
  listBranches: (id: string, signal?: AbortSignal): Promise<BranchesResult> =>
    call(`/repositories/${encodeURIComponent(id)}/branches`, BranchesResultSchema, { signal }),
  /** The task's worktree against its base commit: files with counts and a unified diff. */
  deleteTask: (taskId: string): Promise<void> => call(`/tasks/${encodeURIComponent(taskId)}`, NoContent, { method: "DELETE" }),
  getChanges: (taskId: string, signal?: AbortSignal): Promise<TaskChanges> =>
    call(`/tasks/${encodeURIComponent(taskId)}/changes`, TaskChangesSchema, { signal }),
  mergeTask: (taskId: string, body: MergeBody): Promise<MergeResult> =>
    call(`/tasks/${encodeURIComponent(taskId)}/merge`, MergeResultSchema, post(body)),
  pushTask: (taskId: string): Promise<PushResult> => call(`/tasks/${encodeURIComponent(taskId)}/push`, PushResultSchema, post({})),
  // Issue 34: sign-in, accounts and API tokens (docs/API.md "Security model").
  /** Needs no credentials; `auth` says whether sign-in is on and whether the first admin is still to be made. */
  health: (signal?: AbortSignal): Promise<Health> => call("/health", HealthSchema, { signal }),
  /** Health's `auth` alone; null from a board that predates sign-in (no `auth` field: no sign-in). */
  authStatus: (signal?: AbortSignal): Promise<AuthStatus | null> => call("/health", AuthStatusOf, { signal }),
  me: (signal?: AbortSignal): Promise<Me> => call("/auth/me", MeSchema, { signal }),
  login: (body: LoginBody): Promise<SignedIn> => call("/auth/login", SignedInSchema, post(body)),
  /** Creates the first admin (only while the board has no user). */
  setup: (body: SetupBody): Promise<SignedIn> => call("/auth/setup", SignedInSchema, post(body)),
  logout: (): Promise<void> => call("/auth/logout", NoContent, post({})),
  changeOwnPassword: (body: ChangePasswordBody): Promise<void> => call("/auth/password", NoContent, post(body)),
  listUsers: (signal?: AbortSignal): Promise<User[]> => call("/users", UserSchema.array(), { signal }),
  createUser: (body: CreateUserBody): Promise<User> => call("/users", UserSchema, post(body)),
  deleteUser: (id: string): Promise<void> => call(`/users/${encodeURIComponent(id)}`, NoContent, { method: "DELETE" }),
  setUserPassword: (id: string, password: string): Promise<void> => call(`/users/${encodeURIComponent(id)}/password`, NoContent, post({ password })),
  listTokens: (signal?: AbortSignal): Promise<ApiToken[]> => call("/tokens", ApiTokenSchema.array(), { signal }),
  /** The answer holds the token itself, shown this once. */
  createToken: (name: string): Promise<CreatedToken> => call("/tokens", CreatedTokenSchema, post({ name })),
  revokeToken: (id: string): Promise<void> => call(`/tokens/${encodeURIComponent(id)}`, NoContent, { method: "DELETE" }),
};

/** A 204 answer has no body to validate. */
const NoContent: Parser<void> = { parse: () => undefined };

/** The `auth` of a health answer, or null when the board has none. */
const AuthStatusOf: Parser<AuthStatus | null> = {
  parse(data) {
    const auth = typeof data === "object" && data !== null ? (data as { auth?: unknown }).auth : undefined;
    return auth === undefined ? null : AuthStatusSchema.parse(auth);
  },
};
