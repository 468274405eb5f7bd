import { existsSync } from "node:fs";
import path from "node:path";
import {
  type PermissionRespondBodySchema,
  ProtocolError,
  type AgentActionName,
  type AgentCommand,
  type CreateTaskBody,
  type Features,
  type PromptAccepted,
  type QueuedPrompt,
  type Session,
  type Task,
  type TaskWorkspace,
} from "@kandev/protocol";
import type { z } from "zod";
import type { AgentEventMessage } from "../executor/agentctl-client.js";
import type { LocalExecutor } from "../executor/local-executor.js";
import { agentCommandFailure, type StartFailure } from "../agents/start-errors.js";
import type { ClarificationService, ElicitationTarget } from "../clarifications/service.js";
import { conflict, notFound, validationError } from "../http/errors.js";
import type { Logger } from "../logger.js";
import type { NotificationService } from "../notifications/service.js";
import * as messagesRepo from "../repos/messages.js";
import * as profilesRepo from "../repos/profiles.js";
import * as sessionsRepo from "../repos/sessions.js";
import * as tasksRepo from "../repos/tasks.js";
import * as turnsRepo from "../repos/turns.js";
import { nextQueuedPrompt, type PromptFacts, routePrompt, routeSendNow, type TurnEnd } from "../domain/prompt-queue.js";
import * as queuedRepo from "../repos/queued-prompts.js";
import { toQueuedPrompt } from "../views.js";
import { LOCAL_USERNAME } from "../auth/request-user.js";
import { buildConfigureParams } from "./configure.js";
import { IdleWatch } from "./idle.js";
import {
  AGENTCTL_STOPPED,
  BACKEND_RESTARTED,
  IDLE_CLOSED,
  type Interruption,
  isResumable,
  OPERATOR_CLOSED,
  REOPENED_ERROR,
  settleInterrupted,
} from "./interruption.js";
import { LiveSession } from "./live-session.js";
import { redactDeep, secretsFor } from "./redaction.js";
import type { SessionLogs } from "./session-logs.js";
import { SessionSettings } from "./session-settings.js";
import type { StartPlan } from "./start-plan.js";
import type { LiveStore } from "./store.js";

export interface SessionManagerOptions {
  store: LiveStore;
  executor: LocalExecutor;
  logger: Logger;
  /** Resolved once at startup (DECISIONS F5); every agentctl gets the same values. */
  features: Features;
  timeouts: { elicitationAnswerMs?: number; acpIdleMs?: number };
  defaultProfileId: string;
  clarifications: ClarificationService;
  notifications: NotificationService;
  logs: SessionLogs;
  /**
   * The environment agentctl and agents get, already without the board's settings and credentials
   * (agentctl's `agentEnvFrom`); its PATH finds agent commands.
   */
  agentEnv: Record<string, string>;
  /** The board's own credential-looking values, redacted from every session (redaction.ts `boardSecrets`). */
  boardSecrets: readonly string[];
  /** The board's working directory: where a relative agent command or cwd is resolved. */
  cwd: string;
  /** Ceiling for ACP initialize (default 5 min). */
  initializeTimeoutMs?: number;
  /** KANDEV_SESSION_IDLE_TIMEOUT: a session waiting this long for a prompt has its agent stopped; 0 or absent = never. */
  idleTimeoutMs?: number;
  /** Test seams, see LiveSessionDeps. */
  onAgentRequest?: (sessionId: string, action: AgentActionName, params: unknown) => void;
  onAgentEvent?: (sessionId: string, event: AgentEventMessage) => void;
}

/**
 * Commands on sessions (create, prompt, cancel, answer a permission) and the set of sessions
 * running on this host's agentctl. A session not in that set is not live: its agentctl is gone.
 */
export class SessionManager {
  private readonly live = new Map<string, LiveSession>();
  private readonly starts = new Set<Promise<void>>();
  private closing = false;
  private readonly idle: IdleWatch;
  /** Modes, config options, commands, usage and title of the sessions (session-settings.ts). */
  readonly settings: SessionSettings;

  constructor(private readonly options: SessionManagerOptions) {
    this.settings = new SessionSettings({
      store: options.store,
      // Only a session whose ACP session is open can change a setting now.
      target: (sessionId) => {
        const live = this.isLive(sessionId) ? this.live.get(sessionId) : undefined;
        return live?.acpSessionId != null ? live : undefined;
      },
    });
    this.idle = new IdleWatch({
      timeoutMs: options.idleTimeoutMs ?? 0,
      facts: (sessionId, lastActivityMs) => {
        const row = this.isLive(sessionId) ? sessionsRepo.getSession(this.db, sessionId) : undefined;
        if (row === undefined) return undefined;
        return { state: row.state, openRequests: messagesRepo.listOpenRequests(this.db, sessionId).length, lastActivityMs };
      },
      close: (sessionId) => {
        this.close(sessionId, IDLE_CLOSED).catch((err: unknown) => {
          this.options.logger.warn("could not close an idle session", { session: sessionId, error: errorText(err) });
        });
      },
    });
  }

  private get db() {
    return this.options.store.db;
  }

  /**
   * Creates the task and its session, writes the first turn, and starts the agent in the background.
   * A task on a repository comes with its worktree made (workspaces/service.ts): the agent runs there.
   */
  createTask(
    body: CreateTaskBody,
    workspace?: { taskId: string; workspace: TaskWorkspace },
    user: string = LOCAL_USERNAME,
  ): { task: Task; session: Session } {
    if (this.closing) throw new ProtocolError("CONFLICT", "the backend is shutting down");
    const profileId = body.agent_profile_id ?? this.options.defaultProfileId;
    const profile = profilesRepo.getProfile(this.db, profileId);
    if (profile === undefined) {
      throw validationError("unknown agent profile", [{ path: "agent_profile_id", message: `no agent profile ${profileId}` }]);
    }
    const { store } = this.options;
    const { task, session, turnId } = this.db.transaction((tx) => {
      const task = tasksRepo.insertTask(tx, {
        title: body.title,
        agentProfileId: profile.id,
        ...(workspace !== undefined && { id: workspace.taskId, workspace: workspace.workspace }),
      });
      const session = sessionsRepo.insertSession(tx, { taskId: task.id, agentProfileId: profile.id });
      const turn = turnsRepo.insertTurn(tx, { sessionId: session.id });
      return { task, session, turnId: turn.id };
    });
    store.recomputeTask(task.id);
    store.addMessage({ sessionId: session.id, taskId: task.id, turnId, authorType: "user", type: "text", content: body.prompt, metadata: { user } });
    const started = store.updateSession(session.id, { state: "STARTING", currentTurnId: turnId });
    const live = this.track(new LiveSession(session.id, task.id, turnId, this.liveDeps()));
    this.run(live, this.planFor(profile, body.prompt, workspace?.workspace.path ?? null));
    // A command that cannot run fails the session synchronously: answer with what is true now.
    const now = sessionsRepo.getSession(this.db, session.id);
    return { task: store.taskView(task.id)!, session: now !== undefined && now.state !== started.state ? store.toSessionView(now) : started };
  }

  /**
   * Starts a new turn on a session waiting for input, or queues the prompt while a turn runs (or the
   * agent starts): it is sent when that turn ends (domain/prompt-queue.ts). A session whose
   * agentctl went away under it (a previous run of the backend, agentctl dying, an idle close) is
   * resumed: a fresh agent on this host's agentctl (started again if needed), the ACP session
   * reloaded when the agent can, then this prompt.
   */
  async prompt(sessionId: string, text: string, user: string = LOCAL_USERNAME): Promise<PromptAccepted> {
    const { session, live, route } = this.routeFor(sessionId, routePrompt);
    switch (route) {
      case "resume":
        return this.resume(session, text, user);
      case "queue":
        return { queued: this.enqueue(session, text, user) };
      case "send":
        return this.startTurn(session, live!, text, user);
      case "refuse":
        throw conflict(`session is no longer live (${session.state})`);
      default: {
        const _x: never = route;
        throw new Error(`unknown route ${String(_x)}`);
      }
    }
  }

  /** Withdraws a queued prompt before it was sent (404 when it is not, or no longer, queued). */
  cancelQueued(sessionId: string, queuedId: string): void {
    if (sessionsRepo.getSession(this.db, sessionId) === undefined) throw notFound(`session ${sessionId}`);
    const { store } = this.options;
    store.atomically(() => {
      if (!queuedRepo.deleteQueuedPrompt(this.db, sessionId, queuedId)) throw notFound(`queued prompt ${queuedId}`);
      store.announceSession(sessionId);
    });
  }

  /**
   * "Send now": a queued prompt goes before the others. Mid-turn the turn is cancelled (ACP
   * session/cancel) and the prompt is sent when it ends; with no turn running it is sent at once,
   * as a prompt (resuming the session when its agent is gone). While the agent is still starting
   * the start is not cancelled (that would end the session): the prompt goes first once it is up.
   */
  async sendQueuedNow(sessionId: string, queuedId: string): Promise<PromptAccepted> {
    const { session, live, route } = this.routeFor(sessionId, (facts) =>
      routeSendNow({ ...facts, agentUp: this.live.get(sessionId)?.acpSessionId != null }),
    );
    const queued = queuedRepo.getQueuedPrompt(this.db, sessionId, queuedId);
    if (queued === undefined) throw notFound(`queued prompt ${queuedId}`);
    const { store } = this.options;
    switch (route) {
      case "resume":
        return this.resume(session, queued.text, queued.user ?? LOCAL_USERNAME, queued.id);
      case "send":
        return this.startTurn(session, live!, queued.text, queued.user ?? LOCAL_USERNAME, queued.id);
      case "mark":
      case "cancel_turn": {
        store.atomically(() => {
          queuedRepo.markSendNow(this.db, sessionId, queuedId);
          store.announceSession(sessionId);
        });
        if (route === "cancel_turn") await live!.cancel();
        return { queued: toQueuedPrompt(queued) };
      }
      case "refuse":
        throw conflict(`session is no longer live (${session.state})`);
      default: {
        const _x: never = route;
        throw new Error(`unknown route ${String(_x)}`);
      }
    }
  }

  /** The session, its live run and where a prompt (or a send-now) goes; 404 for an unknown session. */
  private routeFor<R>(
    sessionId: string,
    route: (facts: PromptFacts) => R,
  ): { session: sessionsRepo.SessionRow; live: LiveSession | undefined; route: R } {
    const session = sessionsRepo.getSession(this.db, sessionId);
    if (session === undefined) throw notFound(`session ${sessionId}`);
    const live = this.isLive(sessionId) ? this.live.get(sessionId) : undefined;
    return { session, live, route: route({ state: session.state, live: live !== undefined, resumable: isResumable(session) }) };
  }

  private enqueue(session: sessionsRepo.SessionRow, text: string, user: string): QueuedPrompt {
    const { store } = this.options;
    return store.atomically(() => {
      const row = queuedRepo.insertQueuedPrompt(this.db, { sessionId: session.id, text, user });
      store.announceSession(session.id);
      return toQueuedPrompt(row);
    });
  }

  /**
   * A live session's turn ended and it waits for input: its next queued prompt, if the queue says
   * so, becomes the next turn at once (its user message written then, as for any prompt).
   */
  private sendQueuedAfterTurn(live: LiveSession, end: TurnEnd): void {
    if (this.closing || live.ending) return;
    const failed = (err: unknown) =>
      this.options.logger.warn("a queued prompt could not be sent", { session: live.sessionId, error: errorText(err) });
    try {
      const session = sessionsRepo.getSession(this.db, live.sessionId);
      if (session === undefined || session.state !== "WAITING_FOR_INPUT") return;
      const next = nextQueuedPrompt(queuedRepo.listQueuedPrompts(this.db, session.id), end);
      // A prompt the agent refuses ends its turn with an error (startTurn), which holds the rest.
      if (next !== undefined) this.startTurn(session, live, next.text, next.user ?? LOCAL_USERNAME, next.id).catch(failed);
    } catch (err) {
      // The database refused the read: the queue stays as it is, for the operator to send.
      failed(err);
    }
  }

  /**
   * Writes a new turn with `text` as its user message and sends it to the live agent. `queuedId`,
   * when the text was queued, leaves the queue in the same transaction.
   */
  private async startTurn(
    session: sessionsRepo.SessionRow,
    live: LiveSession,
    text: string,
    user: string,
    queuedId?: string,
  ): Promise<{ turn_id: string }> {
    const sessionId = session.id;
    this.idle.touch(sessionId);
    const { store } = this.options;
    const turn = store.atomically(() => {
      if (queuedId !== undefined) queuedRepo.deleteQueuedPrompt(this.db, sessionId, queuedId);
      const turn = turnsRepo.insertTurn(this.db, { sessionId });
      store.addMessage({ sessionId, taskId: session.taskId, turnId: turn.id, authorType: "user", type: "text", content: text, metadata: { user } });
      store.updateSession(sessionId, { state: "RUNNING", currentTurnId: turn.id });
      return turn;
    });
    try {
      await live.prompt(turn.id, text);
    } catch (err) {
      // The prompt never reached the agent: close the turn so the session can take another one.
      // (Unless agentctl died meanwhile: the interruption settles the session, the turn with it.)
      // agentctl's refusal may quote the agent: the stored turn error and the answer are redacted.
      const redacted = redactError(err, live.redact);
      if (!live.ending && live.reachable && turnsRepo.endTurn(this.db, turn.id, { stopReason: "error", error: errorText(redacted) }) !== undefined) {
        store.updateSession(sessionId, { state: "WAITING_FOR_INPUT" });
      }
      throw redacted;
    }
    return { turn_id: turn.id };
  }

  /**
   * Restarts a session whose agentctl went away under it, with `text` as its next turn (`queuedId`,
   * when the text was queued, leaves the queue as the turn is written).
   */
  private resume(session: sessionsRepo.SessionRow, text: string, user: string, queuedId?: string): { turn_id: string } {
    if (this.closing) throw new ProtocolError("CONFLICT", "the backend is shutting down");
    const profile = profilesRepo.getProfile(this.db, session.agentProfileId);
    if (profile === undefined) throw conflict(`the session's agent profile ${session.agentProfileId} no longer exists`);
    // The worktree belongs to the task and outlives every session: a resumed agent works in it again.
    const worktree = tasksRepo.getTask(this.db, session.taskId)?.workspace?.path ?? null;
    if (worktree !== null && !existsSync(worktree)) throw conflict(`the task's worktree ${worktree} is missing; nothing was started`);
    const { store } = this.options;
    const turn = store.atomically(() => {
      if (queuedId !== undefined) queuedRepo.deleteQueuedPrompt(this.db, session.id, queuedId);
      const turn = turnsRepo.insertTurn(this.db, { sessionId: session.id });
      store.addMessage({
        sessionId: session.id,
        taskId: session.taskId,
        turnId: turn.id,
        authorType: "user",
        type: "text",
        content: text,
        metadata: { user },
      });
      store.updateSession(session.id, { state: "STARTING", currentTurnId: turn.id, error: null });
      return turn;
    });
    const live = this.track(new LiveSession(session.id, session.taskId, turn.id, this.liveDeps()));
    this.run(live, { ...this.planFor(profile, text, worktree), resume: { acpSessionId: session.acpSessionId } });
    return { turn_id: turn.id };
  }

  /**
   * "Start again": a new session for a task whose latest session failed or was cancelled, in the
   * task's worktree, resuming the old ACP session through session/load when the agent can (the
   * transcript says which). Its first prompt is `prompt`, else the last one the operator gave.
   */
  restartTask(taskId: string, prompt?: string, user: string = LOCAL_USERNAME): { task: Task; session: Session } {
    if (this.closing) throw new ProtocolError("CONFLICT", "the backend is shutting down");
    const task = tasksRepo.getTask(this.db, taskId);
    if (task === undefined) throw notFound(`task ${taskId}`);
    const previous = sessionsRepo.latestSessionsByTask(this.db, [taskId]).get(taskId);
    if (previous === undefined || (previous.state !== "FAILED" && previous.state !== "CANCELLED") || this.isLive(previous.id)) {
      throw conflict(`only a failed or cancelled session can be started again (this one is ${previous?.state ?? "missing"})`);
    }
    const profile = profilesRepo.getProfile(this.db, previous.agentProfileId);
    if (profile === undefined) throw conflict(`the session's agent profile ${previous.agentProfileId} no longer exists`);
    const worktree = task.workspace?.path ?? null;
    if (worktree !== null && !existsSync(worktree)) throw conflict(`the task's worktree ${worktree} is missing; nothing was started`);
    const text = prompt ?? messagesRepo.lastUserText(this.db, previous.id);
    if (text === undefined) throw conflict("the session has no prompt to send again; give one as `prompt`");
    const { store } = this.options;
    const { session, turnId } = this.db.transaction((tx) => {
      const session = sessionsRepo.insertSession(tx, { taskId, agentProfileId: profile.id });
      return { session, turnId: turnsRepo.insertTurn(tx, { sessionId: session.id }).id };
    });
    store.addMessage({ sessionId: session.id, taskId, turnId, authorType: "user", type: "text", content: text, metadata: { user } });
    const started = store.updateSession(session.id, { state: "STARTING", currentTurnId: turnId });
    const live = this.track(new LiveSession(session.id, taskId, turnId, this.liveDeps()));
    this.run(live, { ...this.planFor(profile, text, worktree), resume: { acpSessionId: previous.acpSessionId, announce: true } });
    const now = sessionsRepo.getSession(this.db, session.id);
    return { task: store.taskView(taskId)!, session: now !== undefined && now.state !== started.state ? store.toSessionView(now) : started };
  }

  /**
   * Stops the agent of a session waiting for its next prompt (agentctl closes it; agentctl stays),
   * leaving the session resumable by its next prompt like after a restart. Questions still open are
   * settled. Closing a closed session changes nothing; a running turn is `409` (cancel it first).
   */
  async close(sessionId: string, why: Interruption = OPERATOR_CLOSED): Promise<Session> {
    const session = sessionsRepo.getSession(this.db, sessionId);
    if (session === undefined) throw notFound(`session ${sessionId}`);
    const live = this.live.get(sessionId);
    if (live === undefined || live.ending) {
      if (isResumable(session)) return this.options.store.toSessionView(session);
      throw conflict(`session is no longer live (${session.state})`);
    }
    if (session.state !== "WAITING_FOR_INPUT") throw conflict("a turn is running or starting; cancel it first");
    this.options.clarifications.settleExecution(live.executionId, why.by);
    // stop() forgets the live session at once, so the mark below makes the next prompt a resume.
    const stopped = live.stop();
    settleInterrupted(this.options.store, session, why);
    await stopped;
    return this.options.store.toSessionView(sessionsRepo.getSession(this.db, sessionId)!);
  }

  /** Cancels the running turn (ACP session/cancel), or the whole start if the agent is not up yet. */
  async cancel(sessionId: string): Promise<void> {
    const { session, live } = this.liveSession(sessionId);
    if (session.state === "STARTING" || live.acpSessionId === null) {
      live.cancelStart("Cancelled before the agent session started");
      return;
    }
    if (session.state !== "RUNNING") throw conflict("no turn is running");
    await live.cancel();
  }

  /** Forwards a person's decision; the request message records who (`metadata.user`) once it went through. */
  async respondPermission(
    sessionId: string,
    pendingId: string,
    body: z.infer<typeof PermissionRespondBodySchema>,
    user: string = LOCAL_USERNAME,
  ): Promise<void> {
    const hasOption = body.option_id !== undefined;
    const cancelled = body.cancelled === true;
    if (hasOption === cancelled) {
      throw validationError("give exactly one of option_id or cancelled: true", [{ path: "", message: "option_id xor cancelled" }]);
    }
    const session = sessionsRepo.getSession(this.db, sessionId);
    if (session === undefined) throw notFound(`session ${sessionId}`);
    const row = messagesRepo.findByPendingId(this.db, sessionId, "permission_request", pendingId);
    if (row === undefined || !row.requestsInput) throw notFound(`pending permission ${pendingId}`);
    const { live } = this.liveSession(sessionId);
    await live.respondPermission(hasOption ? { pending_id: pendingId, option_id: body.option_id } : { pending_id: pendingId, cancelled: true });
    // Read again: the settle may have been recorded while the answer was on its way.
    const decided = messagesRepo.getMessage(this.db, row.id);
    if (decided !== undefined) this.options.store.patchMessage(decided.id, { metadata: { ...decided.metadata, user } });
  }

  /** The live agentctl of a session for the answer fork, or undefined when it is gone. */
  liveTarget(sessionId: string): ElicitationTarget | undefined {
    const live = this.live.get(sessionId);
    if (live === undefined || live.ending) return undefined;
    return {
      executionId: live.executionId,
      respondElicitation: (params) => live.respondElicitation(params),
    };
  }

  /**
   * Startup: sessions a previous run left live have lost their agentctl (clarifications were
   * settled agent_disconnected just before, by the clarification store). Each settles as an
   * interruption (interruption.ts) and is resumed by its next prompt. Idempotent. Returns how
   * many were interrupted mid-work.
   */
  reconcileLeftovers(): number {
    const leftovers = sessionsRepo.listLiveSessions(this.db).filter((s) => !this.live.has(s.id));
    return leftovers.filter((s) => settleInterrupted(this.options.store, s, BACKEND_RESTARTED)).length;
  }

  /**
   * This host's agentctl died (crash, SIGKILL) under a live session: its clarifications settle
   * agent_disconnected, then the session settles exactly as after a backend restart, marked
   * "agentctl stopped"; its next prompt resumes it on a fresh agentctl.
   */
  private onAgentctlLost(live: LiveSession, err: Error): void {
    if (live.ending) return;
    this.options.logger.warn("agentctl stopped under a live session", { session: live.sessionId, error: err.message });
    live.abandon();
    this.options.clarifications.settleExecution(live.executionId, AGENTCTL_STOPPED.by);
    const row = sessionsRepo.getSession(this.db, live.sessionId);
    if (row !== undefined) settleInterrupted(this.options.store, row, AGENTCTL_STOPPED);
  }

  /**
   * Stops the agent of each live session of a task on this host's agentctl (its open questions
   * settle as the agent disconnecting; the other tasks' sessions run on) without writing the
   * sessions' rows: the task is being deleted or completed.
   */
  async stopTask(taskId: string): Promise<void> {
    const lives = [...this.live.values()].filter((l) => l.taskId === taskId && !l.ending);
    for (const live of lives) this.options.clarifications.settleExecution(live.executionId);
    await Promise.allSettled(lives.map((l) => l.stop()));
  }

  /** The task's work has landed: its agent stops and its latest session becomes COMPLETED (so does the task). */
  async completeTask(taskId: string): Promise<void> {
    await this.stopTask(taskId);
    const latest = sessionsRepo.latestSessionsByTask(this.db, [taskId]).get(taskId);
    if (latest !== undefined) this.options.store.updateSession(latest.id, { state: "COMPLETED" });
  }

  /**
   * The operator takes a task back from Done to Review: its latest session waits for input again,
   * marked so its next prompt resumes it (a fresh agent, ACP session/load where the agent can).
   */
  reopenTask(taskId: string): void {
    const latest = sessionsRepo.latestSessionsByTask(this.db, [taskId]).get(taskId);
    if (latest !== undefined) this.options.store.updateSession(latest.id, { state: "WAITING_FOR_INPUT", error: REOPENED_ERROR });
  }

  /** A live session's streamed text waiting for its batch is written now, before a read through the API. */
  flushStreamed(sessionId: string): void {
    this.live.get(sessionId)?.flushStreamed();
  }

  /** Stops this host's agentctl (SIGTERM, then SIGKILL after 3 s), which stops every agent, and waits. */
  async shutdown(): Promise<void> {
    this.closing = true;
    this.idle.stop();
    // Every live session stops listening first (synchronously), so nothing a waiter's end causes
    // downstream can rewrite a row; the next start reconciles what is left pending.
    const stopping = Promise.allSettled([...this.live.values()].map((l) => l.shutdown()));
    this.options.clarifications.shutdown();
    await stopping;
    await Promise.allSettled([...this.starts]);
    await this.options.executor.stopAll();
  }

  /** `worktree`, when the task has one, replaces the profile's cwd for the agent process and ACP session/new. */
  private planFor(profile: profilesRepo.ProfileRow, text: string, worktree: string | null = null): StartPlan {
    const inWorktree = worktree === null ? profile : { ...profile, cwd: worktree };
    return {
      configure: buildConfigureParams({ profile: inWorktree, features: this.options.features, timeouts: this.options.timeouts }),
      cwd: inWorktree.cwd,
      text,
      secrets: secretsFor(profile.env, this.options.boardSecrets),
    };
  }

  private run(live: LiveSession, plan: StartPlan): void {
    const run = live.start(plan).finally(() => this.starts.delete(run));
    this.starts.add(run);
  }

  /** Why a profile's command cannot be run, checked the way agentctl will spawn it. */
  private checkCommand(agent: AgentCommand): StartFailure | null {
    const env = { ...this.options.agentEnv, ...(agent.env ?? {}) };
    return agentCommandFailure(agent.command, { pathEnv: env.PATH, cwd: path.resolve(this.options.cwd, agent.cwd ?? ".") });
  }

  private isLive(sessionId: string): boolean {
    const live = this.live.get(sessionId);
    return live !== undefined && !live.ending;
  }

  private liveSession(sessionId: string): { session: sessionsRepo.SessionRow; live: LiveSession } {
    const session = sessionsRepo.getSession(this.db, sessionId);
    if (session === undefined) throw notFound(`session ${sessionId}`);
    const live = this.live.get(sessionId);
    if (live === undefined || live.ending) throw conflict(`session is no longer live (${session.state})`);
    return { session, live };
  }

  private track(live: LiveSession): LiveSession {
    this.live.set(live.sessionId, live);
    this.idle.watch(live.sessionId);
    return live;
  }

  private liveDeps() {
    return {
      store: this.options.store,
      executor: this.options.executor,
      logger: this.options.logger,
      onGone: (id: string) => {
        this.live.delete(id);
        this.idle.forget(id);
      },
      onActivity: (id: string) => this.idle.touch(id),
      onTurnEnded: (live: LiveSession, end: TurnEnd) => this.sendQueuedAfterTurn(live, end),
      onAgentctlLost: (live: LiveSession, err: Error) => this.onAgentctlLost(live, err),
      clarifications: this.options.clarifications,
      notifications: this.options.notifications,
      logs: this.options.logs,
      settings: this.settings,
      checkCommand: (agent: AgentCommand) => this.checkCommand(agent),
      ...(this.options.initializeTimeoutMs !== undefined && { initializeTimeoutMs: this.options.initializeTimeoutMs }),
      ...(this.options.onAgentRequest !== undefined && { onAgentRequest: this.options.onAgentRequest }),
      ...(this.options.onAgentEvent !== undefined && { onAgentEvent: this.options.onAgentEvent }),
    };
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The same error with its message and details redacted (a ProtocolError keeps its code). */
function redactError(err: unknown, redact: (text: string) => string): unknown {
  if (err instanceof ProtocolError) return new ProtocolError(err.code, redact(err.message), redactDeep(err.details, redact));
  if (err instanceof Error) return new Error(redact(err.message));
  return err;
}
