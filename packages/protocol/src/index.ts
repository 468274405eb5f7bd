export {
  PROTOCOL_VERSION,
  ErrorCodeSchema,
  ErrorPayloadSchema,
  EnvelopeTypeSchema,
  EnvelopeSchema,
  ProtocolError,
  toErrorPayload,
  requestFrame,
  responseFrame,
  errorFrame,
  notificationFrame,
  inSession,
  parseEnvelope,
} from "./envelope.js";
export type { ErrorCode, ErrorPayload, EnvelopeType, Envelope } from "./envelope.js";
export { TaskStateSchema, SessionStateSchema, PendingActionSchema } from "./states.js";
export type { TaskState, SessionState, PendingAction } from "./states.js";
export {
  LIMITS,
  QuestionKindSchema,
  OptionSchema,
  CompanionSchema,
  QuestionSchema,
  AnswerSchema,
  ClarificationAnswerSchema,
} from "./questions.js";
export type { QuestionKind, Option, Companion, Question, Answer, ClarificationAnswer } from "./questions.js";
export {
  FeaturesSchema,
  AgentCommandSchema,
  ConfigureParamsSchema,
  OkResultSchema,
  InitializeParamsSchema,
  InitializeResultSchema,
  SessionNewParamsSchema,
  SessionNewResultSchema,
  SessionLoadParamsSchema,
  SessionLoadResultSchema,
  PromptParamsSchema,
  PromptResultSchema,
  CancelParamsSchema,
  PermissionRespondParamsSchema,
  SuccessResultSchema,
  ElicitationRespondParamsSchema,
  AnswerUserSchema,
  StatusResultSchema,
  AGENT_ACTIONS,
  AGENT_ACTION_NAMES,
  SessionUpdateSchema,
  PermissionOptionSchema,
  ElicitationOutcomeSchema,
  AGENT_EVENTS,
  AGENT_EVENT_NAMES,
  KandevAskParamsSchema,
  KandevAskResultSchema,
  BACKEND_ACTIONS,
} from "./agent-stream.js";
export type {
  Features,
  AgentCommand,
  ConfigureParams,
  ElicitationRespondParams,
  AgentActionName,
  AgentActionParams,
  AgentActionResult,
  SessionUpdate,
  ElicitationOutcome,
  AgentEventName,
  AgentEvent,
  BackendActionName,
  BackendActionParams,
  BackendActionResult,
  KandevAskResult,
} from "./agent-stream.js";
export {
  AgentProfileSchema,
  ProfileProblemSchema,
  TaskSchema,
  SessionSchema,
  QueuedPromptSchema,
  AgentStatusSchema,
  InterruptionCodeSchema,
  SessionFailureCodeSchema,
  SessionFailureSchema,
  MessageTypeSchema,
  MessageSchema,
  ClarificationSourceSchema,
  ClarificationStatusSchema,
  ResolutionSchema,
  ClarificationSchema,
  RuntimeFlagSchema,
  NotificationKindSchema,
  NotificationSchema,
} from "./entities.js";
export type {
  AgentProfile,
  ProfileProblem,
  Task,
  Session,
  QueuedPrompt,
  AgentStatus,
  InterruptionCode,
  SessionFailureCode,
  SessionFailure,
  MessageType,
  Message,
  ClarificationSource,
  ClarificationStatus,
  Resolution,
  Clarification,
  RuntimeFlag,
  NotificationKind,
  Notification,
} from "./entities.js";
export {
  MAX_BODY_BYTES,
  CreateTaskBodySchema,
  PromptBodySchema,
  PromptAcceptedSchema,
  RestartTaskBodySchema,
  CreateAgentProfileBodySchema,
  PatchAgentProfileBodySchema,
  PatchTaskBodySchema,
  TaskTitleSchema,
  PromptTextSchema,
  PatchRuntimeFlagBodySchema,
  PermissionRespondBodySchema,
  ApiErrorSchema,
} from "./rest.js";
export type {
  CreateTaskBody,
  PromptBody,
  PromptAccepted,
  RestartTaskBody,
  CreateAgentProfileBody,
  PatchAgentProfileBody,
  PatchTaskBody,
  ApiError,
} from "./rest.js";
export {
  BROWSER_WS_PATH,
  SubscribeParamsSchema,
  MessageAppendedSchema,
  BROWSER_REQUESTS,
  BROWSER_NOTIFICATIONS,
  BROWSER_NOTIFICATION_NAMES,
} from "./browser-ws.js";
export type {
  SubscribeParams,
  MessageAppended,
  BrowserRequestName,
  BrowserNotificationName,
  BrowserNotification,
} from "./browser-ws.js";
export {
  KANDEV_TOOL_NAME,
  KandevToolOptionSchema,
  KandevToolQuestionSchema,
  KandevToolInputSchema,
} from "./ask-tool.js";
export type { KandevToolInput } from "./ask-tool.js";
export {
  ClarificationMetadataSchema,
  ClarificationRespondResultSchema,
  NotificationSettingsSchema,
  PatchNotificationSettingsBodySchema,
} from "./clarification-api.js";
export type {
  ClarificationMetadata,
  ClarificationRespondResult,
  NotificationSettings,
  PatchNotificationSettingsBody,
} from "./clarification-api.js";
export { AgentPresetSchema, CreateProfileFromPresetBodySchema } from "./agent-presets.js";
export type { AgentPreset, CreateProfileFromPresetBody } from "./agent-presets.js";
export { SessionLogLineSchema, SessionLogsSchema, SessionLogNotificationSchema } from "./session-logs.js";
export type { SessionLogLine, SessionLogs, SessionLogNotification } from "./session-logs.js";
export {
  RepositorySchema,
  CreateRepositoryBodySchema,
  BranchSchema,
  BranchesResultSchema,
  TaskWorkspaceSchema,
  ChangedFileSchema,
  TaskChangesSchema,
  MergeBodySchema,
  MergeResultSchema,
  PushBodySchema,
  PushResultSchema,
  TaskChangesUpdatedSchema,
  TaskDeletedSchema,
} from "./workspaces.js";
export type {
  Repository,
  CreateRepositoryBody,
  Branch,
  BranchesResult,
  TaskWorkspace,
  ChangedFile,
  TaskChanges,
  MergeBody,
  MergeResult,
  PushBody,
  PushResult,
  TaskChangesUpdated,
  TaskDeleted,
} from "./workspaces.js";
export { applyAppended } from "./message-append.js";
export {
  TOOL_CALL_CAPS,
  ToolCallContentSchema,
  ToolCallLocationSchema,
  ToolCallMetadataSchema,
  PlanEntrySchema,
  PlanMetadataSchema,
  SessionPlanSchema,
} from "./tool-calls.js";
export type { ToolCallContent, ToolCallLocation, ToolCallMetadata, PlanEntry, PlanMetadata, SessionPlan } from "./tool-calls.js";
