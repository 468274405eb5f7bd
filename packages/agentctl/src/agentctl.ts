// Wires transport (stream-server), protocol (dispatcher) and state (session-controller) together.
import { notificationFrame, type Envelope } from "@kandev/protocol";
import { BackendRequests } from "./backend-requests.js";
import { createDispatcher } from "./dispatcher.js";
import { SessionController } from "./session-controller.js";
import { startStreamServer } from "./stream-server.js";
import { DEFAULT_TIMEOUTS, timeoutsProblem, type Timeouts } from "./timeouts.js";

/** Options of {@link startAgentctl}. */
export interface AgentctlOptions {
  /** Bearer token the backend must present on the agent stream. */
  token: string;
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 55m / 1h; agent.configure may override them. */
  timeouts?: Timeouts;
  /** Environment the agent starts from (use `baseAgentEnv()`); defaults to an empty env. */
  agentEnv?: Record<string, string>;
  /** Diagnostics sink; defaults to stderr. */
  log?: (message: string) => void;
}

/** A running agentctl. */
export interface AgentctlHandle {
  readonly port: number;
  /** Cancels pendings and the turn, stops the agent, closes the stream. Idempotent. */
  close(): Promise<void>;
}

/** Starts the agent stream server for one session. Used by the CLI and by in-process tests. */
export async function startAgentctl(options: AgentctlOptions): Promise<AgentctlHandle> {
  if (options.token.length === 0) throw new Error("agentctl needs a non-empty token");
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const problem = timeoutsProblem(timeouts);
  if (problem !== null) throw new Error(problem);
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));

  let emit: (frame: Envelope) => void = () => {};
  let trySend: (frame: Envelope) => boolean = () => false;
  // agentctl's own requests to the backend go out only on a live connection and die with it.
  const backend = new BackendRequests({ send: (frame) => trySend(frame), log });
  const controller = new SessionController({
    send: (event, payload) => emit(notificationFrame(event, payload)),
    baseTimeouts: timeouts,
    baseAgentEnv: options.agentEnv ?? {},
    log,
    backend,
  });
  const dispatcher = createDispatcher(controller.handlers(), { log, onPeerReply: (frame) => backend.onReply(frame) });
  const server = await startStreamServer({
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    token: options.token,
    log,
    onClientGone: (why) => backend.rejectAll(why),
    onFrame: (raw, reply) => {
      void dispatcher.handle(raw).then((out) => {
        if (out !== null) reply(out);
      });
    },
  });
  emit = (frame) => server.emit(frame);
  trySend = (frame) => server.trySend(frame);

  let closing: Promise<void> | null = null;
  return {
    port: server.port,
    close() {
      closing ??= (async () => {
        try {
          await controller.shutdown();
        } finally {
          await server.close();
        }
      })();
      return closing;
    },
  };
}
