import {
  AGENT_ACTIONS,
  AGENT_EVENTS,
  ErrorPayloadSchema,
  ProtocolError,
  errorFrame,
  inSession,
  parseEnvelope,
  requestFrame,
  responseFrame,
  type AgentActionName,
  type AgentActionParams,
  type AgentActionResult,
  type AgentEvent,
  type AgentEventName,
  type Envelope,
} from "@kandev/protocol";
import type { Logger } from "../logger.js";
import type { Transport } from "./transport.js";

/** One validated agentctl event, tagged by name so a `switch` can be exhaustive. */
export type AgentEventMessage = { [E in AgentEventName]: { name: E; payload: AgentEvent<E> } }[AgentEventName];

/** What one session on the stream receives: its events and agentctl's requests on its behalf. */
export interface SessionHandlers {
  onEvent: (event: AgentEventMessage) => void;
  /** agentctl -> backend requests (BACKEND_ACTIONS); the result or ProtocolError is the answer. */
  onRequest: (action: string, payload: unknown) => Promise<unknown>;
}

/**
 * Per-request timeouts. `null` means none: initialize and session/new can take minutes for a real
 * agent (package download, login), and agent.prompt answers at once anyway. A live session sets its
 * own ceiling for initialize (KANDEV_AGENT_INITIALIZE_TIMEOUT), so a silent agent fails loudly.
 */
const DEFAULT_TIMEOUTS: Record<AgentActionName, number | null> = {
  "agent.configure": 60_000,
  "agent.initialize": null,
  "agent.session.new": null,
  "agent.session.load": null,
  "agent.prompt": 30_000,
  // Answered by the agent itself (it may apply the change first), so as long as a prompt's send.
  "agent.session.set_mode": 30_000,
  "agent.session.set_config_option": 30_000,
  "agent.cancel": 30_000,
  "agent.permissions.respond": 30_000,
  "agent.elicitations.respond": 30_000,
  "agent.status": 10_000,
  "agent.session.close": 10_000,
};

interface Pending {
  action: AgentActionName;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout | null;
}

/**
 * The backend's side of the agent stream protocol over one Transport (one agentctl, many
 * sessions): request ids, per-request timeouts, validation of params, results and events against
 * @kandev/protocol, and routing of events and agentctl's requests to the session they are tagged
 * with. When the channel goes, every pending request rejects with NOT_CONNECTED at once: nothing
 * waits on a dead agentctl.
 */
export class AgentctlClient {
  /** Settles once the channel is gone: the reason when lost, undefined after `close()`. */
  readonly closed: Promise<Error | undefined>;
  private readonly pending = new Map<string, Pending>();
  private readonly sessions = new Map<string, SessionHandlers>();
  private nextId = 1;
  private isOpen = true;

  constructor(
    private readonly transport: Transport,
    private readonly logger: Logger,
  ) {
    transport.onLine((line) => this.onLine(line));
    this.closed = transport.closed.then((err) => {
      this.isOpen = false;
      const reason = new ProtocolError("NOT_CONNECTED", err?.message ?? "the agent stream was closed");
      for (const id of [...this.pending.keys()]) this.settle(id)?.reject(reason);
      return err;
    });
  }

  /** False once the channel is gone (agentctl exited or was stopped). */
  get open(): boolean {
    return this.isOpen;
  }

  /** Routes `session`'s events and requests to `handlers` until the returned detach is called. */
  attach(session: string, handlers: SessionHandlers): () => void {
    this.sessions.set(session, handlers);
    return () => {
      if (this.sessions.get(session) === handlers) this.sessions.delete(session);
    };
  }

  /** Sends a typed request for `session`; resolves with its validated result or rejects with a ProtocolError. */
  request<A extends AgentActionName>(
    session: string,
    action: A,
    params: AgentActionParams<A>,
    options: { timeoutMs?: number | null } = {},
  ): Promise<AgentActionResult<A>> {
    const parsed = AGENT_ACTIONS[action].params.safeParse(params);
    if (!parsed.success) {
      return Promise.reject(new ProtocolError("VALIDATION_ERROR", `invalid ${action} params`, parsed.error.issues));
    }
    const id = `b-${this.nextId++}`;
    return new Promise<AgentActionResult<A>>((resolve, reject) => {
      const timeoutMs = options.timeoutMs !== undefined ? options.timeoutMs : DEFAULT_TIMEOUTS[action];
      const timer =
        timeoutMs === null
          ? null
          : setTimeout(() => this.settle(id)?.reject(new ProtocolError("TIMEOUT", `${action} got no answer within ${timeoutMs} ms`)), timeoutMs);
      this.pending.set(id, { action, resolve: resolve as (v: unknown) => void, reject, timer });
      try {
        if (!this.isOpen) throw new ProtocolError("NOT_CONNECTED", "agentctl is not running");
        this.transport.send(JSON.stringify(inSession(session, requestFrame(id, action, parsed.data))));
      } catch (err) {
        this.settle(id)?.reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  /** Ends the channel (stops agentctl); pending requests reject with NOT_CONNECTED. */
  close(): Promise<void> {
    return this.transport.close();
  }

  private onLine(text: string): void {
    let frame: Envelope;
    try {
      frame = parseEnvelope(text);
    } catch (err) {
      this.logger.warn("agent stream: malformed frame dropped", { error: (err as Error).message });
      return;
    }
    switch (frame.type) {
      case "response":
      case "error":
        this.onAnswer(frame);
        return;
      case "notification":
        this.onNotification(frame);
        return;
      case "request":
        this.onIncomingRequest(frame);
        return;
      default: {
        const _x: never = frame.type;
        return;
      }
    }
  }

  private onAnswer(frame: Envelope): void {
    if (frame.id === undefined) {
      const parsed = ErrorPayloadSchema.safeParse(frame.payload);
      this.logger.warn("agent stream: error frame without id", {
        action: frame.action,
        session: frame.session,
        error: parsed.success ? parsed.data : frame.payload,
      });
      return;
    }
    const pending = this.settle(frame.id);
    if (pending === undefined) {
      this.logger.warn("agent stream: answer to an unknown or expired request", { id: frame.id, action: frame.action });
      return;
    }
    if (frame.type === "error") {
      const parsed = ErrorPayloadSchema.safeParse(frame.payload);
      pending.reject(
        parsed.success
          ? new ProtocolError(parsed.data.code, parsed.data.message, parsed.data.details)
          : new ProtocolError("INTERNAL_ERROR", `agentctl sent a malformed error for ${pending.action}`),
      );
      return;
    }
    const result = AGENT_ACTIONS[pending.action].result.safeParse(frame.payload);
    if (result.success) pending.resolve(result.data);
    else pending.reject(new ProtocolError("INTERNAL_ERROR", `agentctl answered ${pending.action} with an invalid result`, result.error.issues));
  }

  private onNotification(frame: Envelope): void {
    const handlers = frame.session === undefined ? undefined : this.sessions.get(frame.session);
    if (handlers === undefined) {
      // A session that ended here may still have had events in the pipe: nobody wants them.
      this.logger.debug("agent stream: event for no live session dropped", { action: frame.action, session: frame.session });
      return;
    }
    if (!Object.hasOwn(AGENT_EVENTS, frame.action)) {
      this.logger.warn("agent stream: unknown event dropped", { action: frame.action });
      return;
    }
    const name = frame.action as AgentEventName;
    const parsed = AGENT_EVENTS[name].safeParse(frame.payload);
    if (!parsed.success) {
      this.logger.warn("agent stream: invalid event dropped", { action: name, issues: parsed.error.issues });
      return;
    }
    try {
      handlers.onEvent({ name, payload: parsed.data } as AgentEventMessage);
    } catch (err) {
      this.logger.error("agent event handler failed", { action: name, error: err instanceof Error ? err.stack : String(err) });
    }
  }

  private onIncomingRequest(frame: Envelope): void {
    const { id, session } = frame;
    const answer = (f: Envelope) => {
      try {
        this.transport.send(JSON.stringify(session === undefined ? f : inSession(session, f)));
      } catch {
        // agentctl is gone, and the request with it.
      }
    };
    if (id === undefined) {
      answer(errorFrame(undefined, frame.action, { code: "BAD_REQUEST", message: "a request needs an id" }));
      return;
    }
    const handlers = session === undefined ? undefined : this.sessions.get(session);
    if (handlers === undefined) {
      answer(errorFrame(id, frame.action, { code: "NOT_FOUND", message: `no live session ${session ?? "(none named)"} on the board` }));
      return;
    }
    handlers.onRequest(frame.action, frame.payload).then(
      (result) => answer(responseFrame(id, frame.action, result)),
      (err: unknown) =>
        answer(errorFrame(id, frame.action, err instanceof ProtocolError ? err.toPayload() : { code: "INTERNAL_ERROR", message: String(err) })),
    );
  }

  private settle(id: string): Pending | undefined {
    const pending = this.pending.get(id);
    if (pending === undefined) return undefined;
    this.pending.delete(id);
    if (pending.timer !== null) clearTimeout(pending.timer);
    return pending;
  }
}
