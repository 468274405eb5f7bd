// The state of one session on agentctl (configured, agent running, ACP session, current turn) and
// the implementation of every agent-stream action for it. Transport-free: events leave through
// `send`; session-mux.ts keeps one per session and tags what leaves with it.
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import {
  AGENT_EVENTS,
  ProtocolError,
  SESSION_STATE_UPDATE_KINDS,
  type AgentActionResult,
  type AgentEvent,
  type AgentEventName,
  type ConfigureParams,
} from "@kandev/protocol";
import { acpErrorInfo, connectAcp, type AcpLink } from "./acp-client.js";
import { acpCloseFailure } from "./acp-close.js";
import { AgentProcess, STDERR_TAIL_CHARS, type AgentExit } from "./agent-process.js";
import { BackendRequests } from "./backend-requests.js";
import { buildClientCapabilities } from "./capabilities.js";
import type { ActionHandlers, ActionParams } from "./dispatcher.js";
import { ElicitationManager } from "./elicitation/index.js";
import { decideKandevTool, KandevToolHost } from "./ask-tool/tool-host.js";
import { createKandevRelay } from "./ask-tool/relay.js";
import { PermissionBroker } from "./permissions.js";
import { resolveTimeouts, type Timeouts } from "./timeouts.js";
import { mapSessionUpdate } from "./update-mapping.js";
import { openedState, setConfigOption, setMode } from "./session-settings.js";
import { ChunkJoiner } from "./chunk-joiner.js";
import {
  ACP_EOF_GRACE_MS,
  MAX_STOP_REASON_CHARS,
  acpFailure,
  delay,
  type InitializeResult,
  type SessionControllerOptions,
  type Turn,
} from "./session-parts.js";

export type { SessionControllerOptions } from "./session-parts.js";

const STATE_KINDS: ReadonlySet<string> = new Set(SESSION_STATE_UPDATE_KINDS);

/** Implements the agent-stream actions for one agent process. */
export class SessionController {
  private config: ConfigureParams | null = null;
  private configuring = false;
  private timeouts: Timeouts;
  private agent: AgentProcess | null = null;
  private conn: acp.ClientConnection | null = null;
  private link: AcpLink | null = null;
  private initialized: InitializeResult | null = null;
  private readonly sessions = new Set<string>();
  /** Sessions whose `session/load` is in flight: their replayed history is not emitted. */
  private readonly loading = new Set<string>();
  private currentSession: string | null = null;
  private turn: Turn | null = null;
  private elicitations: ElicitationManager | null = null;
  private readonly permissions: PermissionBroker;
  private readonly backend: BackendRequests;
  private readonly kandevTool: KandevToolHost;
  /** Resolves after the agent-exit handling (turn ended, pendings settled, agent.exited sent). */
  private agentGone: Promise<void> | null = null;
  /** Why agentctl stopped a still-running agent whose ACP connection failed (onAcpClosed). */
  private acpFailure: string | null = null;
  private shuttingDown: Promise<void> | null = null;
  /** Streamed text chunks joined per pipe read (chunk-joiner.ts); sent before any other frame. */
  private readonly joiner = new ChunkJoiner((event) => this.emitUnchecked("session.update", event));

  constructor(private readonly opts: SessionControllerOptions) {
    this.timeouts = opts.baseTimeouts;
    this.permissions = new PermissionBroker({
      emitRequested: (p) => this.emit("permission.requested", p),
      emitSettled: (p) => this.emit("permission.settled", p),
      autoApprove: () => this.config?.auto_approve_permissions === true,
    });
    this.backend = opts.backend ?? new BackendRequests({ send: () => false, log: opts.log });
    this.kandevTool = new KandevToolHost({
      relay: createKandevRelay({
        requests: this.backend,
        sessionId: () => this.turn?.sessionId ?? this.currentSession,
        beforeRequest: () => this.joiner.flush(),
        log: opts.log,
      }),
      log: opts.log,
    });
  }

  /** The handler map the dispatcher serves. */
  handlers(): ActionHandlers {
    return {
      "agent.configure": (p) => this.configure(p),
      "agent.initialize": (p) => this.initialize(p),
      "agent.session.new": (p) => this.sessionNew(p),
      "agent.session.load": (p) => this.sessionLoad(p),
      "agent.prompt": (p) => this.prompt(p),
      "agent.session.set_mode": (p) => setMode(this.requireSession(p.session_id), p.session_id, p.mode_id),
      "agent.session.set_config_option": (p) => setConfigOption(this.requireSession(p.session_id), p.session_id, p.config_id, p.value),
      "agent.cancel": (p) => this.cancel(p),
      "agent.permissions.respond": (p) => this.permissions.respond(p),
      "agent.elicitations.respond": (p) => {
        if (this.elicitations === null) throw new ProtocolError("NOT_FOUND", `no pending elicitation ${p.pending_id}`);
        // The dispatcher parsed `p` with this action's params schema (ElicitationRespondParamsSchema).
        return this.elicitations.respondValidated(p);
      },
      "agent.status": () => this.status(),
      // session-mux.ts forgets the controller once this answers.
      "agent.session.close": async () => {
        await this.shutdown();
        return { ok: true as const };
      },
    };
  }

  /**
   * Validates the payload against its AGENT_EVENTS schema, then sends it; streamed text joined so
   * far goes first, so events keep the order the agent made them in.
   */
  private emit<E extends AgentEventName>(event: E, payload: AgentEvent<E>): void {
    this.joiner.flush();
    this.emitUnchecked(event, payload);
  }

  private emitUnchecked(event: AgentEventName, payload: unknown): void {
    const checked = AGENT_EVENTS[event].safeParse(payload);
    if (!checked.success) {
      // Sending a frame the backend cannot parse helps nobody; make the bug loud instead.
      this.opts.log(`agentctl: BUG: ${event} payload fails its schema, not sent: ${checked.error.message}`);
      return;
    }
    this.opts.send(event, checked.data);
  }

  async configure(p: ActionParams<"agent.configure">): Promise<{ ok: true }> {
    if (this.shuttingDown !== null) throw new ProtocolError("CONFLICT", "agentctl is shutting down");
    if (this.config !== null || this.configuring) throw new ProtocolError("CONFLICT", "agent is already configured");
    const timeouts = resolveTimeouts(this.opts.baseTimeouts, p.timeouts);
    this.configuring = true;
    try {
      // Built before the spawn so a timeout it refuses fails configure with nothing started.
      let elicitations: ElicitationManager;
      try {
        elicitations = new ElicitationManager({
          features: () => p.features,
          answerTimeoutMs: timeouts.elicitationAnswerMs,
          idleTimeoutMs: timeouts.acpIdleMs,
          // Valid by construction (see ElicitationEmit): not parsed a second time on the way out.
          emit: (event, payload) => {
            this.joiner.flush();
            this.opts.send(event, payload);
          },
          log: this.opts.log,
          knowsSession: (id) => this.sessions.has(id),
        });
      } catch (err) {
        throw new ProtocolError("VALIDATION_ERROR", err instanceof Error ? err.message : String(err));
      }
      const agent = await AgentProcess.start({
        command: p.agent.command,
        env: { ...this.opts.baseAgentEnv, ...(p.agent.env ?? {}) },
        cwd: p.agent.cwd,
        onStderrLine: (text) => this.emit("agent.stderr", { text }),
      });
      if (this.shuttingDown !== null) {
        // The session was closed while its agent started: nobody will ever stop it but us.
        await agent.stop(this.opts.agentKillGraceMs ?? 2000);
        throw new ProtocolError("CONFLICT", "the session was closed while its agent started");
      }
      this.timeouts = timeouts;
      this.config = p;
      this.agent = agent;
      this.elicitations = elicitations;
      this.link = connectAcp(agent.child, {
        onSessionUpdate: (n) => this.onSessionUpdate(n),
        onPermission: (params, signal) => this.permissions.request(params, signal),
        onElicitation: (params, signal) => elicitations.handleCreate(params, signal),
        onActivity: () => this.touchTurn(),
        log: this.opts.log,
      });
      this.conn = this.link.connection;
      const conn = this.conn;
      void conn.closed.then(() => this.onAcpClosed(agent, conn.signal.reason));
      this.agentGone = agent.exited.then((exit) => this.onAgentExit(exit));
      return { ok: true };
    } finally {
      this.configuring = false;
    }
  }

  private requireAgent(): { agent: AgentProcess; conn: acp.ClientConnection; config: ConfigureParams } {
    if (this.config === null || this.agent === null || this.conn === null) {
      throw new ProtocolError("CONFLICT", "agent is not configured (send agent.configure first)");
    }
    if (!this.agent.running) throw new ProtocolError("CONFLICT", "the agent process has exited");
    return { agent: this.agent, conn: this.conn, config: this.config };
  }

  async initialize(p: ActionParams<"agent.initialize">): Promise<InitializeResult> {
    const { conn, config } = this.requireAgent();
    if (this.initialized !== null) throw new ProtocolError("CONFLICT", "agent is already initialized");
    const clientCapabilities = buildClientCapabilities(config.agent_id, config.features);
    let res: acp.InitializeResponse;
    try {
      res = await conn.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: clientCapabilities as acp.ClientCapabilities,
        clientInfo: { name: p.client_name, version: p.client_version },
      });
    } catch (err) {
      throw acpFailure("initialize", err);
    }
    const result: InitializeResult = {
      protocol_version: res.protocolVersion,
      agent_capabilities: (res.agentCapabilities ?? {}) as Record<string, unknown>,
      client_capabilities: clientCapabilities,
    };
    if (res.agentInfo?.name !== undefined) result.agent_name = res.agentInfo.name;
    this.initialized = result;
    return result;
  }

  /** The ACP connection for a request on an open session (CONFLICT / NOT_FOUND otherwise). */
  private requireSession(sessionId: string): acp.ClientConnection {
    const { conn } = this.requireAgent();
    if (!this.sessions.has(sessionId)) throw new ProtocolError("NOT_FOUND", `unknown session ${sessionId}`);
    return conn;
  }

  async sessionNew(p: ActionParams<"agent.session.new">): Promise<AgentActionResult<"agent.session.new">> {
    const { conn, cwd, mcpServers } = await this.sessionSetup(p.cwd);
    let res: acp.NewSessionResponse;
    try {
      res = await conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers });
    } catch (err) {
      throw acpFailure("session/new", err);
    }
    this.sessions.add(res.sessionId);
    this.currentSession = res.sessionId;
    return { session_id: res.sessionId, ...openedState(res) };
  }

  /**
   * ACP `session/load` of a session an earlier agent process created (the backend restarted). Only
   * for agents that advertise `loadSession`. The history the agent replays as `session/update`s
   * while loading is dropped, not emitted: the backend already holds that transcript, and emitting
   * it would append the old turns to the new one.
   */
  async sessionLoad(p: ActionParams<"agent.session.load">): Promise<AgentActionResult<"agent.session.load">> {
    const { conn, cwd, mcpServers, initialized } = await this.sessionSetup(p.cwd);
    if (initialized.agent_capabilities.loadSession !== true) {
      throw new ProtocolError("CONFLICT", "the agent does not advertise loadSession");
    }
    if (this.sessions.has(p.session_id)) throw new ProtocolError("CONFLICT", `session ${p.session_id} is already open`);
    this.loading.add(p.session_id);
    let res: unknown;
    try {
      res = await conn.agent.request(acp.methods.agent.session.load, { sessionId: p.session_id, cwd, mcpServers });
      await this.link?.updatesDrained();
    } catch (err) {
      throw acpFailure("session/load", err);
    } finally {
      this.loading.delete(p.session_id);
    }
    this.sessions.add(p.session_id);
    this.currentSession = p.session_id;
    return { session_id: p.session_id, ...openedState(res) };
  }

  /** What session/new and session/load both need: an initialized agent, an absolute cwd, MCP servers. */
  private async sessionSetup(cwdParam: string | undefined): Promise<{
    conn: acp.ClientConnection;
    cwd: string;
    mcpServers: acp.McpServer[];
    initialized: InitializeResult;
  }> {
    const { conn, config } = this.requireAgent();
    const initialized = this.initialized;
    if (initialized === null) throw new ProtocolError("CONFLICT", "agent is not initialized (send agent.initialize first)");
    // ACP wants an absolute cwd; a relative one is taken relative to the agent's own cwd.
    const cwd = path.resolve(config.agent.cwd ?? process.cwd(), cwdParam ?? ".");
    try {
      const mcpServers = await this.kandevTool.mcpServersFor(decideKandevTool(config.kandev_tool, initialized.agent_capabilities));
      return { conn, cwd, mcpServers, initialized };
    } catch (err) {
      throw new ProtocolError("INTERNAL_ERROR", `cannot start the kandev MCP tool server: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  prompt(p: ActionParams<"agent.prompt">): { turn_id: string } {
    const { conn, agent } = this.requireAgent();
    if (!this.sessions.has(p.session_id)) throw new ProtocolError("NOT_FOUND", `unknown session ${p.session_id}`);
    if (this.turn !== null) {
      throw new ProtocolError("CONFLICT", `a turn is already running (${this.turn.turnId})`, { turn_id: this.turn.turnId });
    }
    let markDone = () => {};
    const done = new Promise<void>((r) => (markDone = r));
    const turn: Turn = { turnId: p.turn_id, sessionId: p.session_id, ended: false, idleTimer: null, done, markDone };
    this.turn = turn;
    this.emit("turn.started", { session_id: p.session_id, turn_id: p.turn_id });
    this.touchTurn();
    conn.agent.request(acp.methods.agent.session.prompt, { sessionId: p.session_id, prompt: [{ type: "text", text: p.text }] }).then(
      async (res) => {
        await this.link?.updatesDrained();
        // The SDK does not validate responses: a stop reason that is not a short string would
        // make turn.ended fail its schema and leave the backend waiting on a turn forever.
        const stopReason: unknown = (res as { stopReason?: unknown } | null)?.stopReason;
        if (typeof stopReason === "string" && stopReason.length > 0 && stopReason.length <= MAX_STOP_REASON_CHARS) this.endTurn(turn, stopReason);
        else this.endTurn(turn, "error", { code: "INVALID_RESPONSE", message: "the agent answered session/prompt without a valid stopReason" });
      },
      async (err: unknown) => {
        // When the agent died, let the exit handling end the turn with the exit details first.
        if (!agent.running || conn.signal.aborted) await this.agentGone;
        await this.link?.updatesDrained();
        this.endTurn(turn, "error", acpErrorInfo(err));
      },
    );
    return { turn_id: p.turn_id };
  }

  async cancel(p: ActionParams<"agent.cancel">): Promise<{ ok: true }> {
    if (!this.sessions.has(p.session_id)) throw new ProtocolError("NOT_FOUND", `unknown session ${p.session_id}`);
    this.cancelSessionPendings(p.session_id, "turn_cancelled");
    if (this.conn !== null && this.agent?.running === true) {
      try {
        await this.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId: p.session_id });
      } catch (err) {
        throw acpFailure("session/cancel", err);
      }
    }
    return { ok: true };
  }

  status() {
    return {
      configured: this.config !== null,
      agent_running: this.agent?.running === true,
      agent_pid: this.agent?.running === true ? this.agent.pid : null,
      session_id: this.currentSession,
      turn_active: this.turn !== null,
      pending_permissions: this.permissions.pendingCount,
      pending_elicitations: this.elicitations?.pendingCount ?? 0,
      pending_kandev_questions: this.backend.pendingCount,
    };
  }

  private cancelSessionPendings(sessionId: string, reason: string): void {
    this.elicitations?.cancelSession(sessionId, reason);
    this.permissions.cancelSession(sessionId, reason);
    this.backend.cancelSession(sessionId, reason);
  }

  private onSessionUpdate(n: acp.SessionNotification): void {
    // While loading, the replayed history is dropped, but state (mode, commands, usage...) is now.
    if (this.loading.has(n.sessionId) && !STATE_KINDS.has(n.update.sessionUpdate)) return;
    const turn = this.turn !== null && this.turn.sessionId === n.sessionId ? this.turn.turnId : null;
    this.joiner.add({ session_id: n.sessionId, turn_id: turn, update: mapSessionUpdate(n.update) });
  }

  /**
   * Re-arms the idle watchdog of the running turn; called on every frame from the agent, so it
   * restarts the turn's one timer (`refresh`, also after it fired) rather than making a new one.
   */
  private touchTurn(): void {
    const turn = this.turn;
    if (turn === null || turn.ended) return;
    if (turn.idleTimer !== null) {
      turn.idleTimer.refresh();
      return;
    }
    turn.idleTimer = setTimeout(() => this.onTurnIdle(turn), this.timeouts.acpIdleMs);
    turn.idleTimer.unref();
  }

  private onTurnIdle(turn: Turn): void {
    if (turn.ended) return;
    // A permission or a kandev question has no deadline here: a human deciding is not an idle agent.
    // (A kandev question's wait is bounded by the backend's 2 h and agentctl's ceiling above it.)
    if (this.permissions.pendingForSession(turn.sessionId) > 0 || this.backend.pendingForSession(turn.sessionId) > 0) {
      this.touchTurn();
      return;
    }
    this.opts.log(`agentctl: turn ${turn.turnId} saw no ACP traffic for ${this.timeouts.acpIdleMs} ms; cancelling it`);
    this.cancelSessionPendings(turn.sessionId, "idle_timeout");
    void this.conn?.agent.notify(acp.methods.agent.session.cancel, { sessionId: turn.sessionId }).catch(() => {});
    this.endTurn(turn, "error", { code: "ACP_IDLE_TIMEOUT", message: `no ACP traffic for ${this.timeouts.acpIdleMs} ms` });
  }

  private endTurn(turn: Turn, stopReason: string, error?: { code: string | number; message: string }): void {
    if (turn.ended) return;
    turn.ended = true;
    if (turn.idleTimer !== null) clearTimeout(turn.idleTimer);
    if (this.turn === turn) this.turn = null;
    const payload: AgentEvent<"turn.ended"> = { session_id: turn.sessionId, turn_id: turn.turnId, stop_reason: stopReason };
    if (error !== undefined) payload.error = error;
    this.emit("turn.ended", payload);
    turn.markDone();
  }

  /**
   * The ACP connection closed. If the agent still runs it can no longer be talked to (a frame over
   * ACP_MAX_FRAME_BYTES, a write that failed, or it closed its stdout): stop it, so the exit path
   * ends the turn and settles pendings instead of leaving them to the idle watchdog. An end the
   * agent caused (EOF on its stdout, EPIPE on its stdin) gets a moment first: an agent that is
   * exiting closes its pipes before the exit lands, and its exit code and stderr say more.
   */
  private onAcpClosed(agent: AgentProcess, reason: unknown): void {
    if (this.shuttingDown !== null || !agent.running) return;
    const failure = acpCloseFailure(reason);
    const stop = () => {
      if (this.shuttingDown !== null || !agent.running) return;
      this.acpFailure = failure.text;
      this.opts.log(`agentctl: ${this.acpFailure}; stopping the agent`);
      void agent.stop(this.opts.agentKillGraceMs ?? 2000);
    };
    if (failure.byAgent) setTimeout(stop, ACP_EOF_GRACE_MS).unref();
    else stop();
  }

  private onAgentExit(exit: AgentExit): void {
    const how = exit.signal !== null ? `signal ${exit.signal}` : `code ${exit.code}`;
    if (this.shuttingDown === null) this.opts.log(`agentctl: the agent exited (${how})`);
    if (this.acpFailure !== null) {
      // Say why we stopped it, where the backend shows the agent's last words.
      exit = { ...exit, stderrTail: `${exit.stderrTail}\nagentctl: ${this.acpFailure}; the agent was stopped`.slice(-STDERR_TAIL_CHARS) };
    }
    if (this.turn !== null) {
      const error =
        this.acpFailure !== null
          ? { code: "ACP_CONNECTION_FAILED", message: this.acpFailure }
          : { code: "AGENT_EXITED", message: `the agent exited (${how})` };
      this.endTurn(this.turn, "error", error);
    }
    this.elicitations?.cancelAll("agent_exited");
    this.permissions.cancelAll("agent_exited");
    this.backend.cancelAll("agent_exited");
    void this.kandevTool.close();
    this.emit("agent.exited", { code: exit.code, signal: exit.signal, stderr_tail: exit.stderrTail });
    this.conn?.close();
  }

  /** Cancels pendings and the turn, stops the agent. Idempotent. */
  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      this.elicitations?.cancelAll("shutdown");
      this.permissions.cancelAll("shutdown");
      this.backend.cancelAll("shutdown");
      // No new tool calls while we go; in-flight ones see their HTTP connection close.
      await this.kandevTool.close();
      const turn = this.turn;
      if (turn !== null && this.conn !== null && this.agent?.running === true) {
        await this.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId: turn.sessionId }).catch(() => {});
        // Let a well-behaved agent answer `cancelled`, but never wait long: we are going away.
        await Promise.race([turn.done, delay(this.opts.shutdownTurnGraceMs ?? 500)]);
      }
      if (this.agent !== null) await this.agent.stop(this.opts.agentKillGraceMs ?? 2000);
      await this.agentGone;
    })();
    return this.shuttingDown;
  }
}
