// Wires transport (stdio-channel), routing (session-mux) and per-session state
// (session-controller) together.
import type { Readable, Writable } from "node:stream";
import { errorFrame } from "@kandev/protocol";
import { SessionMux } from "./session-mux.js";
import type { SessionControllerOptions } from "./session-controller.js";
import { openStdioChannel } from "./stdio-channel.js";
import { DEFAULT_TIMEOUTS, timeoutsProblem, type Timeouts } from "./timeouts.js";

/** Options of {@link startAgentctl}. */
export interface AgentctlOptions {
  /** Where the backend's frames arrive (the CLI: process.stdin). */
  input: Readable;
  /** Where agentctl's frames go (the CLI: process.stdout); nothing else may write to it. */
  output: Writable;
  /** Defaults to 55m / 1h; agent.configure may override them per session. */
  timeouts?: Timeouts;
  /** Environment every agent starts from (use `baseAgentEnv()`); defaults to an empty env. */
  agentEnv?: Record<string, string>;
  /** Diagnostics sink; defaults to stderr. */
  log?: (message: string) => void;
  /** Longest line read from `input` (default MAX_FRAME_BYTES). */
  maxFrameBytes?: number;
  /** Test seam: shorter graces when stopping agents. */
  controller?: Pick<SessionControllerOptions, "shutdownTurnGraceMs" | "agentKillGraceMs">;
}

/** A running agentctl. */
export interface AgentctlHandle {
  /** Resolves, with why, when `input` ended: the backend is gone and agentctl should `close()`. */
  readonly ended: Promise<string>;
  /** Sessions held right now. */
  readonly sessions: number;
  /** Cancels every session's pendings and turn and stops every agent. Idempotent. */
  close(): Promise<void>;
}

/**
 * Serves the agent stream for every session of this host over `input`/`output`, one JSON
 * envelope per line. Used by the CLI (stdin/stdout) and by in-process tests.
 */
export function startAgentctl(options: AgentctlOptions): AgentctlHandle {
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const problem = timeoutsProblem(timeouts);
  if (problem !== null) throw new Error(problem);
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  let write: (frame: Parameters<ReturnType<typeof openStdioChannel>["write"]>[0]) => boolean = () => false;
  const mux = new SessionMux({
    send: (frame) => write(frame),
    baseTimeouts: timeouts,
    baseAgentEnv: options.agentEnv ?? {},
    log,
    ...(options.controller !== undefined && { controller: options.controller }),
  });
  const channel = openStdioChannel({
    input: options.input,
    output: options.output,
    log,
    ...(options.maxFrameBytes !== undefined && { maxFrameBytes: options.maxFrameBytes }),
    onLine: (line) => {
      void mux.handle(line).then((out) => {
        if (out !== null) write(out);
      });
    },
    onOversized: (bytes) => {
      log(`agentctl: dropped a frame of ${bytes} bytes (over the limit)`);
      write(errorFrame(undefined, "error", { code: "BAD_REQUEST", message: `frame of ${bytes} bytes is over the limit` }));
    },
  });
  write = (frame) => channel.write(frame);
  // With the backend gone nobody can answer agentctl's own requests: fail them now.
  const ended = channel.ended.then((why) => {
    mux.rejectBackendRequests(why);
    return why;
  });

  let closing: Promise<void> | null = null;
  return {
    ended,
    get sessions() {
      return mux.size;
    },
    close() {
      closing ??= mux.shutdown();
      return closing;
    },
  };
}
