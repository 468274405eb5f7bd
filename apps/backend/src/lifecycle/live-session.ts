import { randomUUID } from "node:crypto";
import {
  KandevAskResultSchema,
  ProtocolError,
  SESSION_STATE_UPDATE_KINDS,
  type ConfigOptionsResult,
  type ConfigValue,
  type SessionStateUpdate,
  type SessionUpdate,
  type AgentActionName,
  type AgentActionParams,
  type AgentActionResult,
  type ElicitationRespondParams,
} from "@kandev/protocol";
import type { AgentctlClient, AgentEventMessage } from "../executor/agentctl-client.js";
import {
  exitedDuringStartFailure,
  exitedFailure,
  initializeTimeoutFailure,
  spawnRefusedFailure,
  startFailedFailure,
  type StartFailure,
  type StartPhase,
} from "../agents/start-errors.js";
import type { ClarificationContext } from "../clarifications/service.js";
import * as messagesRepo from "../repos/messages.js";
import * as turnsRepo from "../repos/turns.js";
import type { LiveSessionDeps } from "./live-session-deps.js";
import { AGENT_EXIT_WAIT_MS, DEFAULT_INITIALIZE_TIMEOUT_MS, FRESH_SESSION_NOTE, LOADED_SESSION_NOTE, type StartPlan } from "./start-plan.js";
import { makeRedactor, noRedaction, redactDeep, type Redact } from "./redaction.js";
import { Transcript } from "./transcript.js";

export type { LiveSessionDeps } from "./live-session-deps.js";

const STDERR_TAIL_CHARS = 4096;
const STATE_KINDS: ReadonlySet<string> = new Set(SESSION_STATE_UPDATE_KINDS);
const isStateUpdate = (u: SessionUpdate): u is SessionStateUpdate => STATE_KINDS.has(u.kind);
/**
 * One session running on this host's agentctl: starts its agent there, turns its events into
 * transcript and state, and fails the session loudly when its agent goes away (agentctl going
 * away is an interruption the manager settles). See INVARIANTS.md beside this file.
 */
export class LiveSession {
  /**
   * This run of the session's agent; clarifications it holds carry it and die with it. It is also
   * the session's name on the agent stream, so a resumed run never meets an old one's frames.
   */
  readonly executionId = randomUUID();
  client: AgentctlClient | null = null;
  private detach: () => void = () => undefined;
  acpSessionId: string | null = null;
  /** Set once the session is over or being torn down; late events and exits are then ignored. */
  ending = false;
  private readonly transcript: Transcript;
  private agentStderr = "";
  /** Where the start-up is; null once the ACP session is open (or before start). */
  private startPhase: StartPhase | null = null;
  private onAgentExited: () => void = () => undefined;
  private readonly agentExited = new Promise<void>((resolve) => (this.onAgentExited = resolve));
  /** The error message of the last turn that ended with an error, so a crash completes it. */
  private turnErrorMessage: { turnId: string; messageId: string; metadata: Record<string, unknown> } | null = null;
  /**
   * This run's secrets out of whatever the agent's words reach (redaction.ts): the log, the
   * session's and the turn's error, error and status messages with their metadata. Set at start.
   */
  redact: Redact = noRedaction;

  constructor(
    readonly sessionId: string,
    readonly taskId: string,
    public turnId: string,
    private readonly deps: LiveSessionDeps,
  ) {
    this.transcript = new Transcript(deps.store, { sessionId, taskId }, turnId);
  }

  /**
   * agentctl -> configure -> initialize -> session/new (or session/load when resuming) -> first
   * prompt. Failures fail the session with a reason an operator can act on. A command that cannot
   * be run fails it synchronously, before anything is spawned.
   */
  async start(plan: StartPlan): Promise<void> {
    const { store, executor } = this.deps;
    this.redact = makeRedactor(plan.secrets);
    this.deps.logs.configure(this.sessionId, this.redact);
    const problem = this.deps.checkCommand(plan.configure.agent);
    if (problem !== null) {
      this.fail(problem, "");
      return;
    }
    this.startPhase = "configure";
    try {
      const client = await executor.client();
      if (this.ending) return;
      this.client = client;
      this.detach = client.attach(this.executionId, {
        onEvent: (event) => this.onEvent(event),
        onRequest: (action, payload) => this.onAgentctlRequest(action, payload),
      });
      void client.closed.then((err) => {
        if (!this.ending && err !== undefined) this.deps.onAgentctlLost(this, err);
      });
      await this.send("agent.configure", plan.configure);
      this.startPhase = "initialize";
      const init = await this.send("agent.initialize", {}, this.initializeTimeoutMs);
      this.startPhase = "session";
      const opened = await this.openAcpSession(plan, init.agent_capabilities.loadSession === true);
      if (this.ending) return;
      const { session_id } = opened.result;
      this.startPhase = null;
      this.acpSessionId = session_id;
      store.atomically(() => {
        store.updateSession(this.sessionId, { acpSessionId: session_id, state: "RUNNING" });
        this.deps.settings?.onOpened(this.sessionId, opened.result, opened.how);
      });
      await this.send("agent.prompt", { session_id, text: plan.text, turn_id: this.turnId });
    } catch (err) {
      await this.startFailed(plan, err);
    }
  }

  private get initializeTimeoutMs(): number {
    return this.deps.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS;
  }

  /**
   * session/new, or when resuming after a restart session/load of the stored ACP session if the
   * agent can load sessions. An agent that cannot (or refuses to) starts a fresh session, and the
   * transcript says it has no memory of the earlier turns.
   */
  private async openAcpSession(plan: StartPlan, canLoad: boolean): Promise<{ result: AgentActionResult<"agent.session.new">; how: "new" | "load" }> {
    const cwd = plan.cwd !== null ? { cwd: plan.cwd } : {};
    const previous = plan.resume?.acpSessionId ?? null;
    if (plan.resume !== undefined) {
      let note = FRESH_SESSION_NOTE;
      let loadError: string | undefined;
      if (previous !== null && canLoad) {
        try {
          const loaded = await this.send("agent.session.load", { session_id: previous, ...cwd });
          if (plan.resume.announce === true) this.addStatus(LOADED_SESSION_NOTE, { resume: "session_load" });
          return { result: loaded, how: "load" };
        } catch (err) {
          // A dead agent or stream is a start failure; an agent that refused the load starts over.
          if (this.ending || !(err instanceof ProtocolError) || err.code === "NOT_CONNECTED" || err.code === "TIMEOUT") throw err;
          note = `The agent could not reload its earlier session (${err.message}); it starts without memory of earlier turns.`;
          loadError = err.message;
        }
      }
      this.addStatus(note, { resume: "new_session", ...(loadError !== undefined && { load_error: loadError }) });
    }
    return { result: await this.send("agent.session.new", cwd), how: "new" };
  }

  /** A status message; it may quote the agent (why it refused a load), so it is redacted. */
  private addStatus(content: string, metadata: Record<string, unknown>): void {
    this.deps.store.addMessage({
      sessionId: this.sessionId,
      taskId: this.taskId,
      turnId: this.turnId,
      authorType: "agent",
      type: "status",
      content: this.redact(content),
      metadata: redactDeep(metadata, this.redact),
    });
  }

  /** Turns a start-up failure into the reason the operator reads, and fails the session. */
  private async startFailed(plan: StartPlan, err: unknown): Promise<void> {
    // agentctl died under the start: an interruption, settled by the manager (onAgentctlLost).
    if (this.ending || (this.client !== null && !this.client.open)) return;
    const phase = this.startPhase;
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof ProtocolError && phase === "configure" && err.code === "BAD_REQUEST" && /cannot start agent command/.test(message)) {
      this.fail(spawnRefusedFailure(plan.configure.agent.command, message), "");
      return;
    }
    if (err instanceof ProtocolError && phase === "initialize" && err.code === "TIMEOUT") {
      this.fail(initializeTimeoutFailure(this.initializeTimeoutMs), this.agentStderr);
      return;
    }
    if (phase !== null && this.client !== null) {
      // The agent may have died at once: its exit report (code + stderr) says more than the error.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.agentExited, new Promise<void>((r) => (timer = setTimeout(r, AGENT_EXIT_WAIT_MS)))]);
      clearTimeout(timer);
      if (this.ending) return;
    }
    this.fail(startFailedFailure(message), "");
  }

  /** Sends a new prompt; the caller has already written the turn and the user message. */
  async prompt(turnId: string, text: string): Promise<void> {
    this.turnId = turnId;
    this.transcript.beginTurn(turnId);
    await this.send("agent.prompt", { session_id: this.requireAcpSession(), text, turn_id: turnId });
  }

  async cancel(): Promise<void> {
    await this.send("agent.cancel", { session_id: this.requireAcpSession() });
  }

  /** ACP session/set_mode (session-settings.ts records it once this resolves). */
  async setMode(modeId: string): Promise<void> {
    await this.send("agent.session.set_mode", { session_id: this.requireAcpSession(), mode_id: modeId });
  }

  /** ACP session/set_config_option: the agent's full list of options after the change. */
  setConfigOption(configId: string, value: ConfigValue): Promise<ConfigOptionsResult> {
    return this.send("agent.session.set_config_option", { session_id: this.requireAcpSession(), config_id: configId, value });
  }

  /** A status message (a mode change), after the text streamed so far. */
  noteStatus(content: string, metadata: Record<string, unknown>): void {
    this.transcript.interrupt();
    this.addStatus(content, metadata);
  }

  async respondPermission(params: AgentActionParams<"agent.permissions.respond">): Promise<void> {
    await this.send("agent.permissions.respond", params);
  }

  /**
   * Forwards an operator's answer as `agent.elicitations.respond` on the agent stream (AC-20b).
   * Rejects with NOT_CONNECTED, nothing sent, once agentctl is gone.
   */
  async respondElicitation(params: ElicitationRespondParams): Promise<void> {
    await this.send("agent.elicitations.respond", params);
  }

  /** False once the session's agentctl is gone (it died, or the board is stopping). */
  get reachable(): boolean {
    return this.client?.open === true;
  }

  /** Where this session's clarifications come from right now. */
  clarificationContext(): ClarificationContext {
    return { sessionId: this.sessionId, taskId: this.taskId, turnId: this.turnId, executionId: this.executionId };
  }

  /**
   * Ends the session with FAILED: the turn ends, open requests are settled, an `error` message
   * carries the reason and the stderr tail, agentctl is stopped. Idempotent. Everything written
   * is redacted first: the reason quotes the agent's last stderr line, the tail is its stderr.
   */
  fail(why: StartFailure, stderrTail: string): void {
    if (this.ending) return;
    const reason = this.redact(why.reason);
    const failure = redactDeep(why.failure, this.redact);
    this.finish("FAILED", reason);
    const tail = this.redact(stderrTail.trim().length > 0 ? stderrTail : this.agentStderr);
    const content = tail.trim().length > 0 ? `${reason}\n\n${tail.trimEnd()}` : reason;
    const turnError = this.turnErrorMessage;
    if (turnError !== null && turnError.turnId === this.turnId) {
      // The turn already failed with a short error (agentctl reports that before agent.exited):
      // complete that message rather than adding a second one for the same crash. Its metadata
      // was redacted when it was written.
      this.deps.store.patchMessage(turnError.messageId, { content, metadata: { ...turnError.metadata, reason, failure, stderr_tail: tail } });
    } else {
      this.deps.store.addMessage({
        sessionId: this.sessionId,
        taskId: this.taskId,
        turnId: this.turnId,
        authorType: "agent",
        type: "error",
        content,
        metadata: { reason, failure, stderr_tail: tail },
      });
    }
    this.deps.store.updateSession(this.sessionId, { state: "FAILED", error: reason });
    void this.teardown();
  }

  /** Ends the session with CANCELLED (cancel before the agent session existed). */
  cancelStart(why: string): void {
    if (this.ending) return;
    const reason = this.redact(why);
    this.finish("CANCELLED", reason);
    this.deps.store.addMessage({
      sessionId: this.sessionId,
      taskId: this.taskId,
      turnId: this.turnId,
      authorType: "agent",
      type: "status",
      content: reason,
      metadata: { note: "start_cancelled" },
    });
    this.deps.store.updateSession(this.sessionId, { state: "CANCELLED", error: reason });
    void this.teardown();
  }

  /**
   * Backend shutdown: stop listening without touching the session's row (the next start
   * reconciles it); stopping agentctl stops the agent.
   */
  async shutdown(): Promise<void> {
    this.transcript.interrupt();
    this.ending = true;
    await this.teardown({ closeOnAgentctl: false });
  }

  /**
   * Its task is being deleted or its work has landed: stop listening and close the session's agent
   * on agentctl (the other sessions run on), without touching the session's row. Resolves once
   * agentctl has stopped the agent, so nothing writes to the task's worktree afterwards.
   */
  async stop(): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    this.transcript.interrupt();
    await this.teardown();
  }

  /**
   * agentctl died under this session: stop listening, without touching the session's row (the
   * manager settles it as an interruption). Nothing is left on agentctl to close.
   */
  abandon(): void {
    if (this.ending) return;
    this.ending = true;
    this.transcript.interrupt();
    void this.teardown({ closeOnAgentctl: false });
  }

  private finish(state: "FAILED" | "CANCELLED", reason: string): void {
    this.ending = true;
    this.transcript.interrupt();
    turnsRepo.endTurn(this.deps.store.db, this.turnId, { stopReason: state === "FAILED" ? "error" : "cancelled", error: reason });
    // Whatever this agentctl still held can never be answered now, whichever source it came from (F7).
    this.deps.clarifications.settleExecution(this.executionId);
    this.deps.store.settleOpenRequests(this.sessionId, state === "FAILED" ? "session_failed" : "session_cancelled");
  }

  private async teardown(how: { closeOnAgentctl: boolean } = { closeOnAgentctl: true }): Promise<void> {
    this.deps.onGone(this.sessionId);
    this.deps.settings?.forget(this.sessionId);
    this.detach();
    const client = this.client;
    if (!how.closeOnAgentctl || client === null || !client.open) return;
    // Stops the session's agent and drops its state on agentctl; the other sessions run on.
    await client.request(this.executionId, "agent.session.close", {}).catch((err: unknown) => {
      this.deps.logger.warn("agentctl did not close a session", { session: this.sessionId, error: err instanceof Error ? err.message : String(err) });
    });
  }

  private requireAcpSession(): string {
    if (this.acpSessionId === null) throw new ProtocolError("CONFLICT", "the agent session has not started yet");
    return this.acpSessionId;
  }

  /** Sends a request for this session; NOT_CONNECTED, nothing sent, once it ended or agentctl is gone. */
  private send<A extends AgentActionName>(action: A, params: AgentActionParams<A>, timeoutMs?: number): Promise<AgentActionResult<A>> {
    const client = this.client;
    if (this.ending || client === null || !client.open) {
      return Promise.reject(new ProtocolError("NOT_CONNECTED", "the session's agentctl cannot be reached right now"));
    }
    this.deps.onAgentRequest?.(this.sessionId, action, params);
    return client.request(this.executionId, action, params, timeoutMs !== undefined ? { timeoutMs } : {});
  }

  /** agentctl -> backend requests (BACKEND_ACTIONS). */
  private async onAgentctlRequest(action: string, payload: unknown): Promise<unknown> {
    if (this.ending) throw new ProtocolError("NOT_FOUND", "this session is ending");
    switch (action) {
      case "kandev.ask_user_question": {
        const sessionId = (payload as { session_id?: unknown } | null)?.session_id;
        if (typeof sessionId === "string" && this.acpSessionId !== null && sessionId !== this.acpSessionId) {
          throw new ProtocolError("VALIDATION_ERROR", `session_id ${sessionId} is not this agentctl's session`);
        }
        this.transcript.interrupt();
        // What leaves the backend matches its schema, like everything else on the stream.
        return KandevAskResultSchema.parse(await this.deps.clarifications.askKandev(this.clarificationContext(), payload));
      }
      default:
        throw new ProtocolError("UNKNOWN_ACTION", `the backend does not serve ${action}`);
    }
  }

  private onEvent(event: AgentEventMessage): void {
    if (this.ending) return;
    this.deps.onAgentEvent?.(this.sessionId, event);
    this.deps.onActivity?.(this.sessionId);
    switch (event.name) {
      case "agent.stderr":
        // Memory only (the log panel); never waits for the database.
        this.handleEvent(event);
        return;
      case "elicitation.requested":
      case "agent.exited":
        // Not held: a question that cannot be stored is declined at once (nobody could answer
        // it), and an exit fails the session now (its settles go through the held writes). What
        // is held goes first if the database takes it now, so the transcript keeps its order.
        this.deps.store.drainRefused();
        this.handleEvent(event);
        return;
      default:
        // One transaction per event; the database refusing it holds it, in order, with every
        // other write that must not be lost (LiveStore.write, db/refused-writes.ts). A try that
        // does not commit leaves the transcript's place as it was, so its retry starts there.
        this.deps.store.write(
          `${event.name} ${this.sessionId}`,
          () => {
            // A held event of a session that has ended since is dropped: its end already closed the turn.
            if (!this.ending) this.handleEvent(event);
          },
          () => this.keep(),
        );
    }
  }

  /** Saves what an event changes in memory; the returned function puts it back. */
  private keep(): () => void {
    const transcript = this.transcript.snapshot();
    const turnError = this.turnErrorMessage;
    return () => {
      this.transcript.restore(transcript);
      this.turnErrorMessage = turnError;
    };
  }

  /**
   * Streamed text of this session waiting for its batch is written now: a read through the API
   * then sees every character browsers have been sent.
   */
  flushStreamed(): void {
    this.transcript.flush();
  }

  private handleEvent(event: AgentEventMessage): void {
    const { store, logger } = this.deps;
    const ids = { sessionId: this.sessionId, taskId: this.taskId };
    switch (event.name) {
      case "session.update": {
        const update = event.payload.update;
        if (isStateUpdate(update)) this.deps.settings?.onUpdate(this.sessionId, update, this);
        else this.transcript.apply(event.payload.turn_id ?? this.turnId, update);
        return;
      }
      case "turn.started":
        logger.debug("turn started", { session: this.sessionId, turn: event.payload.turn_id });
        return;
      case "turn.ended":
        this.onTurnEnded(event.payload);
        return;
      case "permission.requested": {
        const p = event.payload;
        this.transcript.interrupt();
        store.addMessage({
          ...ids,
          turnId: this.turnId,
          authorType: "agent",
          type: "permission_request",
          content: p.title,
          requestsInput: true,
          metadata: { pending_id: p.pending_id, tool_call_id: p.tool_call_id, options: p.options, status: "pending" },
        });
        store.recomputeTask(this.taskId);
        return;
      }
      case "permission.settled": {
        const p = event.payload;
        const row = messagesRepo.findByPendingId(store.db, this.sessionId, "permission_request", p.pending_id);
        if (row === undefined) {
          logger.warn("permission.settled for an unknown pending id", { pending_id: p.pending_id });
          return;
        }
        store.patchMessage(row.id, {
          requestsInput: false,
          metadata: { ...row.metadata, status: p.outcome, reason: p.reason, ...(p.option_id !== undefined && { option_id: p.option_id }) },
        });
        store.recomputeTask(this.taskId);
        return;
      }
      case "elicitation.requested":
        this.transcript.interrupt();
        this.deps.clarifications.onElicitationRequested(this.clarificationContext(), event.payload);
        return;
      case "elicitation.settled":
        this.deps.clarifications.onElicitationSettled(this.clarificationContext(), event.payload);
        return;
      case "agent.stderr":
        this.agentStderr = `${this.agentStderr}${event.payload.text}\n`.slice(-STDERR_TAIL_CHARS);
        this.deps.logs.append(this.sessionId, this.taskId, event.payload.text);
        return;
      case "agent.exited": {
        const p = event.payload;
        const why = this.startPhase !== null ? exitedDuringStartFailure(this.startPhase, p, p.stderr_tail) : exitedFailure(p);
        this.onAgentExited();
        this.fail(why, p.stderr_tail);
        return;
      }
      default: {
        const _x: never = event;
        return;
      }
    }
  }

  private onTurnEnded(p: { turn_id: string; stop_reason: string; error?: { code: string | number; message: string } | undefined }): void {
    const { store } = this.deps;
    // agentctl's words for a failed turn may quote the agent (its ACP error, its stderr).
    const error = p.error !== undefined ? { code: p.error.code, message: this.redact(p.error.message) } : undefined;
    const ended = turnsRepo.endTurn(store.db, p.turn_id, { stopReason: p.stop_reason, error: error?.message ?? null });
    if (ended === undefined) return;
    this.transcript.interrupt();
    const base = { sessionId: this.sessionId, taskId: this.taskId, turnId: p.turn_id, authorType: "agent" as const };
    if (p.stop_reason === "cancelled") {
      store.addMessage({ ...base, type: "status", content: "Turn cancelled", metadata: { stop_reason: p.stop_reason } });
    } else if (error !== undefined) {
      const metadata = redactDeep({ stop_reason: p.stop_reason, code: error.code }, this.redact);
      const message = store.addMessage({ ...base, type: "error", content: error.message, metadata });
      this.turnErrorMessage = { turnId: p.turn_id, messageId: message.id, metadata };
    }
    this.deps.clarifications.onTurnEnded(this.sessionId, p.turn_id, p.stop_reason);
    this.deps.settings?.onTurnEnded(this.sessionId);
    store.settleOpenRequests(this.sessionId, "turn_ended");
    if (p.turn_id === this.turnId) store.updateSession(this.sessionId, { state: "WAITING_FOR_INPUT" });
    const finished = { turnId: p.turn_id, sessionId: this.sessionId, taskId: this.taskId, stopReason: p.stop_reason };
    store.afterCommit(() => this.deps.notifications.turnFinished(finished));
    if (p.turn_id === this.turnId) {
      const end = { stopReason: p.stop_reason, failed: p.error !== undefined };
      store.afterCommit(() => this.deps.onTurnEnded?.(this, end));
    }
  }
}
