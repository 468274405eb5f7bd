import { z } from "zod";
import { AnswerSchema, ClarificationAnswerSchema, QuestionSchema } from "./questions.js";
import { PlanEntrySchema, ToolCallDetailsShape } from "./tool-calls.js";
import {
  AvailableCommandsUpdateSchema,
  ConfigOptionUpdateSchema,
  ConfigOptionsResultSchema,
  ConfigValueSchema,
  CurrentModeUpdateSchema,
  OpenedSessionStateSchema,
  SessionInfoUpdateSchema,
  UsageUpdateSchema,
} from "./session-state.js";

// ---------------------------------------------------------------------------------------------
// Actions: backend -> agentctl requests, each with its params and result schema.
// ---------------------------------------------------------------------------------------------

export const FeaturesSchema = z.object({
  /** `features.acpElicitation`, resolved by the backend once at startup (DECISIONS F5). */
  acpElicitation: z.boolean(),
});
export type Features = z.infer<typeof FeaturesSchema>;

export const AgentCommandSchema = z.object({
  command: z.array(z.string().min(1)).min(1),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
});
export type AgentCommand = z.infer<typeof AgentCommandSchema>;

export const ConfigureParamsSchema = z.object({
  agent: AgentCommandSchema,
  /** Scopes the client capabilities' `_meta` (e.g. "cursor-agent", "claude-acp", "mock"). */
  agent_id: z.string().default("generic"),
  features: FeaturesSchema,
  auto_approve_permissions: z.boolean().default(false),
  timeouts: z
    .object({
      /** KANDEV_ELICITATION_ANSWER_TIMEOUT in ms; must be below acp_idle_ms. */
      elicitation_answer_ms: z.number().int().positive().optional(),
      /** KANDEV_ACP_IDLE_TIMEOUT in ms. */
      acp_idle_ms: z.number().int().positive().optional(),
    })
    .default({}),
  /**
   * agentctl's `ask_user_question_kandev` MCP tool server, relayed to the backend as
   * `kandev.ask_user_question`. Absent means enabled; `{enabled: false}` turns it off. It is offered
   * only to agents that advertise `mcpCapabilities.http`.
   */
  kandev_tool: z.object({ enabled: z.boolean() }).optional(),
});
export type ConfigureParams = z.infer<typeof ConfigureParamsSchema>;
export const OkResultSchema = z.object({ ok: z.literal(true) });

export const InitializeParamsSchema = z.object({
  client_name: z.string().default("kandev"),
  client_version: z.string().default("0.1.0"),
});
export const InitializeResultSchema = z.object({
  protocol_version: z.number(),
  agent_name: z.string().optional(),
  agent_capabilities: z.record(z.string(), z.unknown()),
  /** Exactly what agentctl advertised in `initialize`, for inspection and AC-01/AC-19 tests. */
  client_capabilities: z.record(z.string(), z.unknown()),
});

export const SessionNewParamsSchema = z.object({ cwd: z.string().optional() });
/** `modes` and `config_options` when the agent's ACP answer carried them (session-state.ts). */
export const SessionNewResultSchema = z.object({ session_id: z.string() }).extend(OpenedSessionStateSchema.shape);

/**
 * ACP `session/load` of a session an earlier agent process created (only for agents that advertise
 * `agentCapabilities.loadSession`). The history the agent replays while loading is not re-emitted:
 * the backend already holds that transcript.
 */
export const SessionLoadParamsSchema = z.object({
  session_id: z.string().min(1),
  cwd: z.string().optional(),
});
export const SessionLoadResultSchema = z.object({ session_id: z.string() }).extend(OpenedSessionStateSchema.shape);

/** ACP `session/set_mode`; answered once the agent answered (its error is AGENT_ERROR). */
export const SetModeParamsSchema = z.object({ session_id: z.string().min(1), mode_id: z.string().min(1) });
/** ACP `session/set_config_option`; the result is the agent's full list of options after the change. */
export const SetConfigOptionParamsSchema = z.object({ session_id: z.string().min(1), config_id: z.string().min(1), value: ConfigValueSchema });

export const PromptParamsSchema = z.object({
  session_id: z.string().min(1),
  text: z.string().min(1).max(1_000_000),
  /** Backend's id for this turn, echoed on turn events. */
  turn_id: z.string().min(1),
});
/** The prompt is sent; the outcome arrives later as a `turn.ended` event. */
export const PromptResultSchema = z.object({ turn_id: z.string() });

export const CancelParamsSchema = z.object({ session_id: z.string().min(1) });

export const PermissionRespondParamsSchema = z.object({
  pending_id: z.string().min(1),
  /** The chosen ACP permission option; absent together with `cancelled: true`. */
  option_id: z.string().optional(),
  cancelled: z.boolean().optional(),
});
export const SuccessResultSchema = z.object({ success: z.literal(true) });

/** Who answered: the operator's user name ("local" on a board without sign-in). */
export const AnswerUserSchema = z.string().min(1).max(256);

export const ElicitationRespondParamsSchema = ClarificationAnswerSchema.extend({
  pending_id: z.string().min(1).max(256),
  /** Echoed in the `elicitation.settled` this answer causes, so the settle records who answered. */
  user: AnswerUserSchema.optional(),
});
export type ElicitationRespondParams = z.infer<typeof ElicitationRespondParamsSchema>;

export const StatusResultSchema = z.object({
  configured: z.boolean(),
  agent_running: z.boolean(),
  agent_pid: z.number().nullable(),
  session_id: z.string().nullable(),
  turn_active: z.boolean(),
  pending_permissions: z.number().int(),
  pending_elicitations: z.number().int(),
  /** `kandev.ask_user_question` requests agentctl is waiting on the backend for. */
  pending_kandev_questions: z.number().int().optional(),
});

/** Every action agentctl serves. A completeness test ties this to agentctl's dispatcher. */
export const AGENT_ACTIONS = {
  "agent.configure": { params: ConfigureParamsSchema, result: OkResultSchema },
  "agent.initialize": { params: InitializeParamsSchema, result: InitializeResultSchema },
  "agent.session.new": { params: SessionNewParamsSchema, result: SessionNewResultSchema },
  "agent.session.load": { params: SessionLoadParamsSchema, result: SessionLoadResultSchema },
  "agent.prompt": { params: PromptParamsSchema, result: PromptResultSchema },
  "agent.session.set_mode": { params: SetModeParamsSchema, result: OkResultSchema },
  "agent.session.set_config_option": { params: SetConfigOptionParamsSchema, result: ConfigOptionsResultSchema },
  "agent.cancel": { params: CancelParamsSchema, result: OkResultSchema },
  "agent.permissions.respond": { params: PermissionRespondParamsSchema, result: SuccessResultSchema },
  "agent.elicitations.respond": { params: ElicitationRespondParamsSchema, result: SuccessResultSchema },
  "agent.status": { params: z.object({}), result: StatusResultSchema },
  /**
   * Ends the frame's session on agentctl: its pendings are cancelled, its agent stopped, its state
   * dropped. Closing a session agentctl does not know is not an error (it may be gone already).
   */
  "agent.session.close": { params: z.object({}), result: OkResultSchema },
} as const;
export type AgentActionName = keyof typeof AGENT_ACTIONS;
export type AgentActionParams<A extends AgentActionName> = z.input<(typeof AGENT_ACTIONS)[A]["params"]>;
export type AgentActionResult<A extends AgentActionName> = z.infer<(typeof AGENT_ACTIONS)[A]["result"]>;
export const AGENT_ACTION_NAMES = Object.keys(AGENT_ACTIONS) as AgentActionName[];

// ---------------------------------------------------------------------------------------------
// Events: agentctl -> backend notifications.
// ---------------------------------------------------------------------------------------------

export const SessionUpdateSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("agent_message_chunk"), text: z.string() }),
  z.object({ kind: z.literal("agent_thought_chunk"), text: z.string() }),
  z.object({
    kind: z.literal("tool_call"),
    tool_call_id: z.string(),
    title: z.string(),
    status: z.string().optional(),
    tool_kind: z.string().optional(),
    ...ToolCallDetailsShape,
  }),
  z.object({
    kind: z.literal("tool_call_update"),
    tool_call_id: z.string(),
    title: z.string().optional(),
    status: z.string().optional(),
    tool_kind: z.string().optional(),
    ...ToolCallDetailsShape,
  }),
  /** The agent's whole current plan (ACP `plan`): each update replaces the list. */
  z.object({ kind: z.literal("plan"), entries: z.array(PlanEntrySchema) }),
  // Session state, not transcript (session-state.ts).
  CurrentModeUpdateSchema,
  ConfigOptionUpdateSchema,
  AvailableCommandsUpdateSchema,
  UsageUpdateSchema,
  SessionInfoUpdateSchema,
  /** Any other ACP `sessionUpdate`, kept by name so nothing is silently lost. */
  z.object({ kind: z.literal("other"), session_update: z.string() }),
]);
export type SessionUpdate = z.infer<typeof SessionUpdateSchema>;

export const PermissionOptionSchema = z.object({
  option_id: z.string(),
  name: z.string(),
  kind: z.string(),
});

export const ElicitationOutcomeSchema = z.enum(["answered", "declined", "cancelled", "timed_out"]);
export type ElicitationOutcome = z.infer<typeof ElicitationOutcomeSchema>;

export const AGENT_EVENTS = {
  "session.update": z.object({ session_id: z.string(), turn_id: z.string().nullable(), update: SessionUpdateSchema }),
  "turn.started": z.object({ session_id: z.string(), turn_id: z.string() }),
  "turn.ended": z.object({
    session_id: z.string(),
    turn_id: z.string(),
    /** ACP stop reason (`end_turn`, `cancelled`, ...) or `error` when the prompt request failed. */
    stop_reason: z.string(),
    error: z.object({ code: z.union([z.string(), z.number()]), message: z.string() }).optional(),
  }),
  "permission.requested": z.object({
    pending_id: z.string(),
    session_id: z.string(),
    tool_call_id: z.string().nullable(),
    title: z.string(),
    options: z.array(PermissionOptionSchema),
  }),
  "permission.settled": z.object({
    pending_id: z.string(),
    outcome: z.enum(["selected", "cancelled"]),
    option_id: z.string().optional(),
    reason: z.string(),
  }),
  "elicitation.requested": z.object({
    pending_id: z.string(),
    session_id: z.string(),
    tool_call_id: z.string().nullable(),
    message: z.string(),
    questions: z.array(QuestionSchema).min(1),
    /** ISO-8601 time at which agentctl declines on its own (AC-64). */
    deadline: z.string(),
  }),
  "elicitation.settled": z.object({
    pending_id: z.string(),
    outcome: ElicitationOutcomeSchema,
    /** Who or what settled it: operator, operator_rejected, deadline, agent_cancelled, turn_cancelled, shutdown. */
    reason: z.string(),
    /**
     * Present when the operator's answer settled it (reason operator / operator_rejected): the
     * answer as given, so this event alone records the outcome.
     */
    answers: z.array(AnswerSchema).optional(),
    reject_reason: z.string().optional(),
    /** The answer request's `user`, echoed. */
    user: AnswerUserSchema.optional(),
  }),
  "agent.stderr": z.object({ text: z.string() }),
  "agent.exited": z.object({
    code: z.number().nullable(),
    signal: z.string().nullable(),
    stderr_tail: z.string(),
  }),
} as const;
export type AgentEventName = keyof typeof AGENT_EVENTS;
export type AgentEvent<E extends AgentEventName> = z.infer<(typeof AGENT_EVENTS)[E]>;
export const AGENT_EVENT_NAMES = Object.keys(AGENT_EVENTS) as AgentEventName[];

// ---------------------------------------------------------------------------------------------
// Requests agentctl makes of the backend (agentctl -> backend), answered on the same stream.
// ---------------------------------------------------------------------------------------------

/** `ask_user_question_kandev` relayed from agentctl's MCP tool server to the backend. */
export const KandevAskParamsSchema = z.object({
  session_id: z.string().nullable(),
  questions: z.unknown(),
});
/**
 * The backend's answer: `text` is what the agent reads as the tool result (the backend words it),
 * `answer` the operator's structured answer as recorded.
 */
export const KandevAskResultSchema = z.object({
  text: z.string(),
  answer: ClarificationAnswerSchema,
});
export type KandevAskResult = z.infer<typeof KandevAskResultSchema>;
export const BACKEND_ACTIONS = {
  "kandev.ask_user_question": { params: KandevAskParamsSchema, result: KandevAskResultSchema },
} as const;
export type BackendActionName = keyof typeof BACKEND_ACTIONS;
export type BackendActionParams<A extends BackendActionName> = z.input<(typeof BACKEND_ACTIONS)[A]["params"]>;
export type BackendActionResult<A extends BackendActionName> = z.infer<(typeof BACKEND_ACTIONS)[A]["result"]>;
