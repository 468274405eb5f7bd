/**
 * `elicitation/create` requests answered by agentctl beside the ACP SDK rather than through it.
 *
 * Each question's round trip used to take the SDK's generic request path: its Web Streams reader,
 * a handler chain, a responder and a promise-chained Web Streams writer, per message, in 50
 * processes that each see too few messages for V8 to optimise any of it (most of agentctl's time
 * per question was there; docs/BENCHMARKS.md). agentctl registers the method with an identity
 * params parser and never lets the SDK validate it, so the SDK adds nothing but the JSON-RPC
 * envelope, which is reproduced here exactly:
 *
 * - only what the SDK itself would accept as a request is taken (`jsonrpc: "2.0"`, a method, an id
 *   that is null, a string or a finite number); anything else still goes to the SDK, which answers it;
 * - the response is `{jsonrpc: "2.0", id, result}` with the handler's value (null for undefined),
 *   or `{..., error}` (-32603, or -32800 for an aborted request) should the handler ever reject;
 * - `$/cancel_request` for an open request aborts its signal with RequestError -32800, as the SDK
 *   does for its own requests; once the connection closed, every open signal is aborted with the
 *   close reason and nothing more is written.
 *
 * The order of the wire is kept: the SDK hands notifications over through a chain of promises, so
 * a request read while a `session/update` before it is still on its way (`ready()` false) waits
 * for the next turn of the event loop (`defer`), by which time that chain has run; requests
 * waiting so keep their order, and later ones queue behind them. (An update the SDK rejects is
 * never handed over; then requests just keep taking that one extra turn.)
 */
import * as acp from "@agentclientprotocol/sdk";
import { RequestCancel, type CancelSignal } from "./cancel-signal.js";

type JsonRpcId = string | number | null;

export const ELICITATION_CREATE = "elicitation/create";
const CANCEL_REQUEST = "$/cancel_request";

function isJsonRpcId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

export interface DirectElicitationsOptions {
  /** The elicitation manager's `handleCreate`: gets the params exactly as received. */
  handle: (params: unknown, signal: CancelSignal) => Promise<unknown>;
  /** Writes one JSON-RPC message to the agent. */
  send: (message: acp.AnyMessage) => void;
  /** True when every `session/update` read so far has been handled. */
  ready: () => boolean;
  /** Runs `fn` on the next turn of the event loop, after pending promise callbacks (setImmediate). */
  defer: (fn: () => void) => void;
}

export class DirectElicitations {
  private readonly open = new Map<JsonRpcId, RequestCancel>();
  /** Requests waiting for the next turn of the event loop (see the module comment), in order. */
  private readonly waiting: Array<() => void> = [];
  private closed = false;

  constructor(private readonly opts: DirectElicitationsOptions) {}

  /** How many requests wait for their answer. */
  get openCount(): number {
    return this.open.size;
  }

  /**
   * Looks at one message from the agent before the SDK does. Returns true when it was an
   * `elicitation/create` request, now taken (the SDK must not see it). A `$/cancel_request` is
   * acted on and still passed on (the SDK cancels its own requests from it).
   */
  take(message: Record<string, unknown>): boolean {
    if (message["jsonrpc"] !== "2.0" || typeof message["method"] !== "string") return false;
    const method = message["method"];
    if (method === CANCEL_REQUEST && !("id" in message)) {
      this.cancel(message["params"]);
      return false;
    }
    if (method !== ELICITATION_CREATE || !("id" in message) || !isJsonRpcId(message["id"])) return false;
    if (this.closed) return true; // the SDK drops whatever arrives after the connection closed
    const id = message["id"];
    const controller = new RequestCancel();
    this.open.set(id, controller);
    const run = () => {
      this.opts.handle(message["params"], controller.signal).then(
        (result) => this.respond(id, controller, { result: result ?? null }),
        (err: unknown) => this.respond(id, controller, { error: errorResponse(err, controller.signal) }),
      );
    };
    if (this.waiting.length === 0 && this.opts.ready()) {
      run();
      return true;
    }
    if (this.waiting.length === 0) this.opts.defer(() => this.runWaiting());
    this.waiting.push(run);
    return true;
  }

  /**
   * The connection closed: every open request's signal aborts with `reason`; nothing more is sent.
   * A listener that throws (a bug) does not keep the other requests open: all are aborted, then
   * the first such error is thrown.
   */
  closeAll(reason: unknown): void {
    this.closed = true;
    const open = [...this.open.values()];
    this.open.clear();
    let failure: { error: unknown } | undefined;
    for (const controller of open) {
      try {
        controller.abort(reason);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
  }

  private runWaiting(): void {
    for (const run of this.waiting.splice(0)) run();
  }

  private cancel(params: unknown): void {
    if (typeof params !== "object" || params === null) return;
    const requestId = (params as Record<string, unknown>)["requestId"];
    if (!isJsonRpcId(requestId)) return;
    const controller = this.open.get(requestId);
    if (controller === undefined || controller.signal.aborted) return;
    controller.abort(acp.RequestError.requestCancelled({ requestId }));
  }

  private respond(id: JsonRpcId, controller: RequestCancel, body: { result: unknown } | { error: acp.ErrorResponse }): void {
    if (this.open.get(id) === controller) this.open.delete(id);
    if (this.closed) return;
    this.opts.send({ jsonrpc: "2.0", id, ...body } as acp.AnyMessage);
  }
}

/** What the SDK answers for a handler that rejected: -32800 when the request was aborted, else -32603. */
function errorResponse(err: unknown, signal: CancelSignal): acp.ErrorResponse {
  if (err instanceof acp.RequestError) return err.toErrorResponse();
  const aborted = signal.aborted && typeof err === "object" && err !== null && ((err as Error).name === "AbortError" || (err as { code?: unknown }).code === "ABORT_ERR");
  if (aborted) {
    const reason: unknown = signal.reason;
    return (reason instanceof acp.RequestError && reason.code === -32800 ? reason : acp.RequestError.requestCancelled(reason)).toErrorResponse();
  }
  return acp.RequestError.internalError({ details: err instanceof Error ? err.message : String(err) }).toErrorResponse();
}
