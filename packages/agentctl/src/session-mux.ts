// Routing of the agent stream's sessions: one agentctl runs every session of its host, and every
// frame names its session (`session` on the envelope). Each session has its own controller,
// dispatcher and table of requests to the backend, so a crash, a cancel or a close in one never
// touches another. No pipes here (stdio-channel.ts); no action logic (session-controller.ts).
import {
  AGENT_ACTIONS,
  ProtocolError,
  errorFrame,
  inSession,
  notificationFrame,
  parseEnvelope,
  responseFrame,
  toErrorPayload,
  type Envelope,
} from "@kandev/protocol";
import { BackendRequests } from "./backend-requests.js";
import { createDispatcher, salvageIdAndAction, type Dispatcher } from "./dispatcher.js";
import { SessionController, type SessionControllerOptions } from "./session-controller.js";
import type { Timeouts } from "./timeouts.js";

export interface SessionMuxOptions {
  /** Writes one frame to the backend; false when the channel is gone (nothing is buffered). */
  send: (frame: Envelope) => boolean;
  baseTimeouts: Timeouts;
  baseAgentEnv: Record<string, string>;
  log: (message: string) => void;
  /** Extra controller options (tests: shorter graces). */
  controller?: Pick<SessionControllerOptions, "shutdownTurnGraceMs" | "agentKillGraceMs">;
}

interface Entry {
  controller: SessionController;
  dispatcher: Dispatcher;
  backend: BackendRequests;
}

export class SessionMux {
  private readonly sessions = new Map<string, Entry>();
  private shuttingDown: Promise<void> | null = null;

  constructor(private readonly opts: SessionMuxOptions) {}

  /** Sessions agentctl holds right now. */
  get size(): number {
    return this.sessions.size;
  }

  /** Handles one line from the backend; resolves to the frame to send back, or null when none is due. */
  async handle(raw: string): Promise<Envelope | null> {
    let frame: Envelope;
    try {
      frame = parseEnvelope(raw);
    } catch (err) {
      const { id, action, session } = salvageIdAndAction(raw);
      const out = errorFrame(id, action, toErrorPayload(err));
      return session === undefined ? out : inSession(session, out);
    }
    const session = frame.session;
    if (session === undefined) {
      if (frame.type !== "request") {
        this.opts.log(`agentctl: dropped a ${frame.type} for ${frame.action} that names no session`);
        return null;
      }
      return errorFrame(frame.id, frame.action, { code: "BAD_REQUEST", message: "a frame on the agent stream needs a session" });
    }
    const out = await this.route(session, frame);
    return out === null ? null : inSession(session, out);
  }

  private async route(session: string, frame: Envelope): Promise<Envelope | null> {
    const entry = this.sessions.get(session);
    if (frame.type === "response" || frame.type === "error") {
      if (entry === undefined) this.opts.log(`agentctl: dropped a ${frame.type} for ${frame.action} of unknown session ${session}`);
      else entry.backend.onReply(frame);
      return null;
    }
    if (entry === undefined) {
      if (frame.type !== "request")
        return errorFrame(undefined, frame.action, { code: "BAD_REQUEST", message: "agentctl accepts requests, not notifications" });
      return this.refuseUnknown(frame) ?? this.configureNew(session, frame);
    }
    const out = await entry.dispatcher.handleFrame(frame);
    if (frame.action === "agent.session.close" && out?.type === "response") this.forget(session, entry);
    return out;
  }

  /** What a request for a session agentctl does not hold gets, or undefined when it opens one. */
  private refuseUnknown(frame: Envelope): Envelope | undefined {
    if (frame.id === undefined) return errorFrame(undefined, frame.action, { code: "BAD_REQUEST", message: "a request needs an id" });
    if (!Object.hasOwn(AGENT_ACTIONS, frame.action)) {
      return errorFrame(frame.id, frame.action, { code: "UNKNOWN_ACTION", message: `unknown action "${frame.action}"` });
    }
    // Closing what is already gone is done: the backend closes after an agent's exit too.
    if (frame.action === "agent.session.close") return responseFrame(frame.id, frame.action, { ok: true });
    if (frame.action !== "agent.configure") {
      return errorFrame(frame.id, frame.action, { code: "NOT_FOUND", message: "unknown session (send agent.configure first)" });
    }
    if (this.shuttingDown !== null) {
      return errorFrame(frame.id, frame.action, toErrorPayload(new ProtocolError("CONFLICT", "agentctl is shutting down")));
    }
    return undefined;
  }

  /** `agent.configure` of a new session: its controller exists only if the configure succeeds. */
  private async configureNew(session: string, frame: Envelope): Promise<Envelope | null> {
    const entry = this.create(session);
    const out = await entry.dispatcher.handleFrame(frame);
    if (out?.type === "error") {
      this.forget(session, entry);
      await entry.controller.shutdown();
    }
    return out;
  }

  private create(session: string): Entry {
    const { log } = this.opts;
    const backend = new BackendRequests({ send: (frame) => this.opts.send(inSession(session, frame)), log });
    const controller = new SessionController({
      send: (event, payload) => void this.opts.send(inSession(session, notificationFrame(event, payload))),
      baseTimeouts: this.opts.baseTimeouts,
      baseAgentEnv: this.opts.baseAgentEnv,
      log,
      backend,
      ...this.opts.controller,
    });
    const dispatcher = createDispatcher(controller.handlers(), { log, onPeerReply: (f) => backend.onReply(f) });
    const entry = { controller, dispatcher, backend };
    this.sessions.set(session, entry);
    return entry;
  }

  private forget(session: string, entry: Entry | undefined): void {
    if (entry === undefined || this.sessions.get(session) === entry) this.sessions.delete(session);
  }

  /** The backend is gone: its requests can never be answered. */
  rejectBackendRequests(why: string): void {
    for (const { backend } of this.sessions.values()) backend.rejectAll(why);
  }

  /** Stops every session (pendings cancelled, agents stopped). Idempotent. */
  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      await Promise.allSettled([...this.sessions.values()].map((e) => e.controller.shutdown()));
      this.sessions.clear();
    })();
    return this.shuttingDown;
  }
}
