import {
  AGENT_ACTIONS,
  AGENT_EVENTS,
  ErrorPayloadSchema,
  ProtocolError,
  errorFrame,
  eventSeq,
  parseEnvelope,
  requestFrame,
  type AgentActionName,
  type AgentActionParams,
  type AgentActionResult,
  type AgentEvent,
  type AgentEventName,
  type Envelope,
} from "@kandev/protocol";
import type { Logger } from "../logger.js";
import { AgentStreamTransport } from "./transport.js";

/** One validated agentctl event, tagged by name so a `switch` can be exhaustive. */
export type AgentEventMessage = { [E in AgentEventName]: { name: E; payload: AgentEvent<E> } }[AgentEventName];

export interface AgentStreamClientOptions {
  url: string;
  token: string;
  logger: Logger;
  isProcessAlive: () => boolean;
  onEvent: (event: AgentEventMessage) => void;
  /** agentctl -> backend requests (BACKEND_ACTIONS). Until one is wired, they answer UNKNOWN_ACTION. */
  onRequest?: (action: string, payload: unknown) => Promise<unknown>;
  /** The stream is gone for good (agentctl unreachable after every reconnect attempt). */
  onLost?: (err: Error) => void;
  /** The socket dropped, for good or not (agentctl fails every request it had sent us then). */
  onDisconnect?: (err: Error) => void;
  timeouts?: Partial<Record<AgentActionName, number | null>>;
  transportBackoff?: { initialMs: number; maxMs: number; maxAttempts: number };
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
  "agent.cancel": 30_000,
  "agent.permissions.respond": 30_000,
  "agent.elicitations.respond": 30_000,
  "agent.status": 10_000,
};

interface Pending {
  action: AgentActionName;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout | null;
}

/**
 * The backend's side of the agent stream protocol: request ids, per-request timeouts, validation of
 * params, results and events against @kandev/protocol. Losing the socket rejects every pending
 * request with NOT_CONNECTED, so nothing waits forever on a dead agentctl.
 */
export class AgentStreamClient {
  readonly closed: Promise<Error | undefined>;
  private readonly transport: AgentStreamTransport;
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;
  /** Highest agentctl event number handled (see onNotification). */
  private lastEventSeq = 0;

  constructor(private readonly options: AgentStreamClientOptions) {
    this.transport = new AgentStreamTransport({
      url: options.url,
      token: options.token,
      logger: options.logger,
      shouldReconnect: options.isProcessAlive,
      onFrame: (text) => this.onFrame(text),
      onDisconnect: (err) => {
        this.rejectAll(err);
        try {
          options.onDisconnect?.(err);
        } catch (e) {
          options.logger.error("agent stream disconnect handler failed", { error: e instanceof Error ? e.stack : String(e) });
        }
      },
      onReconnect: () => undefined,
      ...(options.transportBackoff !== undefined && { backoff: options.transportBackoff }),
    });
    this.closed = this.transport.closed;
    void this.closed.then((err) => {
      this.rejectAll(err ?? new ProtocolError("NOT_CONNECTED", "agent stream closed"));
      if (err !== undefined) options.onLost?.(err);
    });
  }

  get connected(): boolean {
    return this.transport.connected;
  }

  connect(): Promise<void> {
    return this.transport.connect();
  }

  /** Ends the stream for good; pending requests reject with NOT_CONNECTED. Not reported as lost. */
  close(): void {
    this.options.onLost = undefined;
    this.transport.close();
  }

  /** Test seam: drop the socket and hold reconnection (agentctl keeps running). */
  suspend(): void {
    this.transport.suspend();
  }

  /** Test seam: end `suspend()` and wait until the stream is connected again. */
  resume(): Promise<void> {
    return this.transport.resume();
  }

  /** Sends a typed request and resolves with its validated result, or rejects with a ProtocolError. */
  request<A extends AgentActionName>(action: A, params: AgentActionParams<A>): Promise<AgentActionResult<A>> {
    const spec = AGENT_ACTIONS[action];
    const parsed = spec.params.safeParse(params);
    if (!parsed.success) {
      return Promise.reject(new ProtocolError("VALIDATION_ERROR", `invalid ${action} params`, parsed.error.issues));
    }
    const id = `b-${this.nextId++}`;
    return new Promise<AgentActionResult<A>>((resolve, reject) => {
      const timeoutMs = this.options.timeouts?.[action] !== undefined ? this.options.timeouts[action] : DEFAULT_TIMEOUTS[action];
      const timer =
        timeoutMs === null || timeoutMs === undefined
          ? null
          : setTimeout(() => {
              this.pending.delete(id);
              reject(new ProtocolError("TIMEOUT", `${action} got no answer within ${timeoutMs} ms`));
            }, timeoutMs);
      this.pending.set(id, { action, resolve: resolve as (v: unknown) => void, reject, timer });
      try {
        this.transport.send(JSON.stringify(requestFrame(id, action, parsed.data)));
      } catch (err) {
        this.settle(id)?.reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  private onFrame(text: string): void {
    let frame: Envelope;
    try {
      frame = parseEnvelope(text);
    } catch (err) {
      this.options.logger.warn("agent stream: malformed frame dropped", { error: (err as Error).message });
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
        return _x;
      }
    }
  }

  private onAnswer(frame: Envelope): void {
    if (frame.id === undefined) {
      const parsed = ErrorPayloadSchema.safeParse(frame.payload);
      this.options.logger.warn("agent stream: error frame without id", { action: frame.action, error: parsed.success ? parsed.data : frame.payload });
      return;
    }
    const pending = this.settle(frame.id);
    if (pending === undefined) {
      this.options.logger.warn("agent stream: answer to an unknown or expired request", { id: frame.id, action: frame.action });
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
    // agentctl numbers its events and replays the last few on a new connection (a frame sent as
    // the old socket died is otherwise lost): handle each number once, in order.
    const seq = eventSeq(frame.id);
    if (seq !== null) {
      if (seq <= this.lastEventSeq) return;
      if (this.lastEventSeq > 0 && seq > this.lastEventSeq + 1) {
        this.options.logger.warn("agent stream: events were lost (agentctl's buffer overflowed)", { missing: seq - this.lastEventSeq - 1 });
      }
      this.lastEventSeq = seq;
    }
    if (!Object.prototype.hasOwnProperty.call(AGENT_EVENTS, frame.action)) {
      this.options.logger.warn("agent stream: unknown event dropped", { action: frame.action });
      return;
    }
    const name = frame.action as AgentEventName;
    const parsed = AGENT_EVENTS[name].safeParse(frame.payload);
    if (!parsed.success) {
      this.options.logger.warn("agent stream: invalid event dropped", { action: name, issues: parsed.error.issues });
      return;
    }
    try {
      this.options.onEvent({ name, payload: parsed.data } as AgentEventMessage);
    } catch (err) {
      this.options.logger.error("agent event handler failed", { action: name, error: err instanceof Error ? err.stack : String(err) });
    }
  }

  private onIncomingRequest(frame: Envelope): void {
    const id = frame.id;
    const answer = (f: Envelope) => {
      try {
        this.transport.send(JSON.stringify(f));
      } catch {
        // The stream is gone; agentctl settles its own pending call when it notices.
      }
    };
    if (id === undefined) {
      answer(errorFrame(undefined, frame.action, { code: "BAD_REQUEST", message: "a request needs an id" }));
      return;
    }
    const handler = this.options.onRequest;
    if (handler === undefined) {
      answer(errorFrame(id, frame.action, { code: "UNKNOWN_ACTION", message: `the backend does not serve ${frame.action}` }));
      return;
    }
    handler(frame.action, frame.payload).then(
      (result) => answer({ id, type: "response", action: frame.action, payload: result }),
      (err: unknown) =>
        answer(
          errorFrame(id, frame.action, err instanceof ProtocolError ? err.toPayload() : { code: "INTERNAL_ERROR", message: String(err) }),
        ),
    );
  }

  private settle(id: string): Pending | undefined {
    const pending = this.pending.get(id);
    if (pending === undefined) return undefined;
    this.pending.delete(id);
    if (pending.timer !== null) clearTimeout(pending.timer);
    return pending;
  }

  private rejectAll(err: Error): void {
    const reason = err instanceof ProtocolError && err.code === "NOT_CONNECTED" ? err : new ProtocolError("NOT_CONNECTED", err.message);
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(reason);
  }
}
