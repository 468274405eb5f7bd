// Protocol side of agentctl's own requests to the backend (BACKEND_ACTIONS): request ids, reply
// correlation, validation both ways, abort and a ceiling timeout. No sockets here: frames leave
// through `send`, which refuses once the channel to the backend is gone (stdio-channel.ts).
import {
  BACKEND_ACTIONS,
  ErrorPayloadSchema,
  ProtocolError,
  requestFrame,
  type BackendActionName,
  type BackendActionParams,
  type BackendActionResult,
  type Envelope,
} from "@kandev/protocol";

/**
 * The backend waits up to 2 h (its default) for the operator; agentctl's own ceiling sits above
 * that so the backend's verdict always arrives first. It exists only so nothing waits forever on a
 * backend that forgot a request.
 */
export const BACKEND_REQUEST_CEILING_MS = 2 * 60 * 60_000 + 10 * 60_000;

/**
 * Why a request ended without the backend's answer. `code` is `NOT_CONNECTED` when no backend
 * could take it or the connection went away, `TIMEOUT` at the ceiling, `CANCELLED` when agentctl
 * itself abandoned it (turn cancel, agent gone, shutdown, caller aborted).
 */
export class BackendRequestError extends Error {
  constructor(
    readonly code: "NOT_CONNECTED" | "TIMEOUT" | "CANCELLED",
    message: string,
  ) {
    super(message);
    this.name = "BackendRequestError";
  }
}

export interface BackendRequestsOptions {
  /** Sends a frame to the connected backend; false when none is connected (never buffers). */
  send: (frame: Envelope) => boolean;
  log?: (message: string) => void;
  /** Per-request ceiling; defaults to {@link BACKEND_REQUEST_CEILING_MS}. */
  timeoutMs?: number;
}

export interface BackendRequestOptions {
  /** ACP session the request belongs to: `cancelSession` abandons it, the idle watchdog counts it. */
  sessionId: string | null;
  /** Aborting abandons the request (the agent cancelled its tool call). */
  signal?: AbortSignal;
}

interface Pending {
  action: BackendActionName;
  sessionId: string | null;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
  cleanup: () => void;
}

/** agentctl -> backend requests in flight, answered by `response`/`error` frames with the same id. */
export class BackendRequests {
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;
  private readonly log: (message: string) => void;

  constructor(private readonly opts: BackendRequestsOptions) {
    this.log = opts.log ?? (() => {});
  }

  /**
   * Sends `action` and resolves with the backend's validated result. Rejects with a ProtocolError
   * carrying the backend's own code when it answers `error`, or with a BackendRequestError.
   */
  request<A extends BackendActionName>(action: A, params: BackendActionParams<A>, options: BackendRequestOptions): Promise<BackendActionResult<A>> {
    const parsed = BACKEND_ACTIONS[action].params.safeParse(params);
    if (!parsed.success) {
      return Promise.reject(new ProtocolError("VALIDATION_ERROR", `invalid ${action} params`, parsed.error.issues));
    }
    if (options.signal?.aborted === true) {
      return Promise.reject(new BackendRequestError("CANCELLED", "the request was cancelled before it was sent"));
    }
    // Prefixed so they can never collide with the backend's own ids (`b-N`) in logs.
    const id = `agentctl-${this.nextId++}`;
    return new Promise<BackendActionResult<A>>((resolve, reject) => {
      const onAbort = () => this.settle(id)?.reject(new BackendRequestError("CANCELLED", "the agent cancelled the tool call"));
      const timeoutMs = this.opts.timeoutMs ?? BACKEND_REQUEST_CEILING_MS;
      const timer = setTimeout(() => {
        this.settle(id)?.reject(new BackendRequestError("TIMEOUT", `the backend did not answer ${action} within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        action,
        sessionId: options.sessionId,
        resolve: resolve as (value: unknown) => void,
        reject,
        timer,
        cleanup: () => options.signal?.removeEventListener("abort", onAbort),
      });
      if (!this.opts.send(requestFrame(id, action, parsed.data))) {
        this.settle(id)?.reject(new BackendRequestError("NOT_CONNECTED", "the board (backend) is not connected to agentctl"));
      }
    });
  }

  /** Routes a `response`/`error` frame; false when it answers no pending request (late or unknown). */
  onReply(frame: Envelope): boolean {
    const pending = frame.id === undefined ? undefined : this.settle(frame.id);
    if (pending === undefined) {
      // A request abandoned on our side (cancel, disconnect, timeout) may still be answered; drop it.
      this.log(`agentctl: dropped a ${frame.type} for ${frame.action} that answers no pending request (id ${frame.id ?? "none"})`);
      return false;
    }
    if (frame.type === "error") {
      const err = ErrorPayloadSchema.safeParse(frame.payload);
      pending.reject(
        err.success
          ? new ProtocolError(err.data.code, err.data.message, err.data.details)
          : new ProtocolError("INTERNAL_ERROR", `the backend sent a malformed error for ${pending.action}`),
      );
      return true;
    }
    const result = BACKEND_ACTIONS[pending.action].result.safeParse(frame.payload);
    if (result.success) pending.resolve(result.data);
    else {
      this.log(`agentctl: the backend answered ${pending.action} with an invalid result: ${result.error.message}`);
      pending.reject(new ProtocolError("INTERNAL_ERROR", `the backend answered ${pending.action} with an invalid result`));
    }
    return true;
  }

  /** The backend connection is gone: every request sent on it is failed (nothing waits on a dead peer). */
  rejectAll(why: string): void {
    for (const id of [...this.pending.keys()]) {
      this.settle(id)?.reject(new BackendRequestError("NOT_CONNECTED", `the board (backend) connection was lost (${why})`));
    }
  }

  /** Abandons every request (agent exited, shutdown). */
  cancelAll(reason: string): void {
    for (const id of [...this.pending.keys()]) {
      this.settle(id)?.reject(new BackendRequestError("CANCELLED", `abandoned (${reason})`));
    }
  }

  /** Abandons the requests of one ACP session (turn cancelled, idle timeout). */
  cancelSession(sessionId: string, reason: string): void {
    for (const [id, p] of [...this.pending]) {
      if (p.sessionId === sessionId) this.settle(id)?.reject(new BackendRequestError("CANCELLED", `abandoned (${reason})`));
    }
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  pendingForSession(sessionId: string): number {
    let n = 0;
    for (const p of this.pending.values()) if (p.sessionId === sessionId) n += 1;
    return n;
  }

  private settle(id: string): Pending | undefined {
    const p = this.pending.get(id);
    if (p === undefined) return undefined;
    this.pending.delete(id);
    clearTimeout(p.timer);
    p.cleanup();
    return p;
  }
}
