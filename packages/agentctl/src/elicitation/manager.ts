/**
 * The lifecycle of pending elicitations: a thin I/O shell over the pure request check, schema
 * mapping and answer building. Each `elicitation/create` that maps to questions is parked under a
 * fresh pending id until exactly one of: the operator answers (respond), the answer deadline passes,
 * the agent withdraws the request (its cancel signal), the turn is cancelled (cancelSession) or
 * agentctl shuts down (cancelAll). Whichever comes first settles it; the rest find nothing.
 * See INVARIANTS.md for the guarantees and the tests that hold them.
 */
import { randomUUID } from "node:crypto";
import type { AgentEvent, ElicitationOutcome, ElicitationRespondParams, Features, Question } from "@kandev/protocol";
import { AGENT_EVENTS, ElicitationRespondParamsSchema, ProtocolError } from "@kandev/protocol";
import { buildResponse, type ElicitationResponse } from "./answers.js";
import { parseCreateRequest } from "./request.js";
import { mapElicitation, type MappedElicitation } from "./schema-map.js";

/**
 * Sends an agent-stream event. Every payload already matches its AGENT_EVENTS schema:
 * `elicitation.requested` (which carries what the agent sent) is validated in `park` before it is
 * emitted, `elicitation.settled` is built from agentctl's own typed values.
 */
export type ElicitationEmit = (event: "elicitation.requested" | "elicitation.settled", payload: Record<string, unknown>) => void;

/** Timer and clock seam so deadline tests advance time instead of sleeping. */
export interface ElicitationClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ElicitationManagerOptions {
  /** Read on every request: `features.acpElicitation` off -> decline without an event. */
  features: () => Features;
  /** KANDEV_ELICITATION_ANSWER_TIMEOUT in ms: unanswered -> decline (AC-64). */
  answerTimeoutMs: number;
  /** Sends an agent-stream event (`elicitation.requested` / `elicitation.settled`). */
  emit: ElicitationEmit;
  /** Pending id factory; default crypto.randomUUID (globally unique, AC-60). */
  newId?: () => string;
  /** Defaults to the real clock and timers. */
  clock?: ElicitationClock;
  /** KANDEV_ACP_IDLE_TIMEOUT in ms; when given, answerTimeoutMs must be strictly below it (F13a). */
  idleTimeoutMs?: number;
  /** Diagnostics (declines and their reasons); never receives question text or answers. */
  log?: (message: string) => void;
  /**
   * Whether `sessionId` is one of this agent's ACP sessions (agentctl's `session/new` results).
   * A request scoped to any other session is declined: it belongs to no turn, so no turn cancel
   * would ever settle it. Absent: every session id is accepted (unit tests).
   */
  knowsSession?: (sessionId: string) => boolean;
  /** At most this many pendings at once; further requests are declined (default MAX_PENDING_ELICITATIONS). */
  maxPending?: number;
}

/** Who or what settled a pending, as carried by `elicitation.settled.reason`. */
export type SettleReason =
  | "operator"
  | "operator_rejected"
  | "deadline"
  | "agent_cancelled"
  | "agent_disconnected"
  | "turn_cancelled"
  | "shutdown"
  | "undeliverable"
  | (string & {});

/** What `elicitation.settled` carries of an operator's answer. */
type OperatorAnswer = Pick<AgentEvent<"elicitation.settled">, "answers" | "reject_reason" | "user">;

const DECLINE: ElicitationResponse = { action: "decline" };
const CANCEL: ElicitationResponse = { action: "cancel" };
/** setTimeout's ceiling (~24.8 days); longer waits re-arm. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Upper bound on the answer timeout (about 31 years) so the deadline is always a valid date. */
export const MAX_ANSWER_TIMEOUT_MS = 1e12;
/**
 * How many elicitations one agentctl parks at once. A real agent asks one question (a few with
 * MCP servers) at a time; the cap stops a runaway agent from flooding the operator, the database
 * and every browser with questions.
 */
export const MAX_PENDING_ELICITATIONS = 1000;

const realClock: ElicitationClock = {
  now: () => Date.now(),
  // Unref'd: the deadline timer may stay armed with nothing pending (see armDeadline); agentctl's
  // sockets keep it alive while it serves.
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * F13a: the answer deadline must be strictly below the ACP idle timeout, so an unanswered
 * elicitation is declined by Kandev rather than lost to a connection teardown. Returns an error
 * message, or null when the pair is valid.
 */
export function checkElicitationTimeouts(answerTimeoutMs: number, idleTimeoutMs?: number): string | null {
  if (!Number.isFinite(answerTimeoutMs) || answerTimeoutMs <= 0 || answerTimeoutMs > MAX_ANSWER_TIMEOUT_MS) {
    return `elicitation answer timeout must be between 1 and ${MAX_ANSWER_TIMEOUT_MS} ms (got ${answerTimeoutMs})`;
  }
  if (idleTimeoutMs !== undefined && !(answerTimeoutMs < idleTimeoutMs)) {
    return `elicitation answer timeout (${answerTimeoutMs} ms) must be below the ACP idle timeout (${idleTimeoutMs} ms)`;
  }
  return null;
}

interface Pending {
  readonly id: string;
  readonly sessionId: string;
  readonly questions: Question[];
  readonly deadlineMs: number;
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
  readonly resolve: (response: ElicitationResponse) => void;
}

/** The agent's `$/cancel_request` aborts with JSON-RPC -32800; a closed connection aborts otherwise. */
function abortReason(signal: AbortSignal): SettleReason {
  const reason: unknown = signal.reason;
  const code = typeof reason === "object" && reason !== null ? (reason as { code?: unknown }).code : undefined;
  return code === -32800 ? "agent_cancelled" : "agent_disconnected";
}

/** Parks, answers and settles the ACP `elicitation/create` requests of one agentctl. */
export class ElicitationManager {
  private readonly pending = new Map<string, Pending>();
  private readonly clock: ElicitationClock;
  private readonly newId: () => string;
  /**
   * One timer for every deadline, armed for `timerAt` (the earliest deadline when it was armed).
   * A pending that settles early leaves it armed: it fires, finds nothing due, and re-arms for the
   * earliest pending left, if any. So a question costs no timer of its own: with a fixed answer
   * timeout each new deadline is the latest, and nothing needs arming at all.
   */
  private timer: unknown = undefined;
  private timerAt = Infinity;

  constructor(private readonly opts: ElicitationManagerOptions) {
    const problem = checkElicitationTimeouts(opts.answerTimeoutMs, opts.idleTimeoutMs);
    if (problem !== null) throw new RangeError(problem);
    this.clock = opts.clock ?? realClock;
    this.newId = opts.newId ?? randomUUID;
  }

  /**
   * Handles one ACP `elicitation/create` (register it with an identity params parser so malformed
   * bodies reach this method). Resolves with the response to send, exactly once; never rejects.
   */
  async handleCreate(params: unknown, signal: AbortSignal): Promise<ElicitationResponse> {
    if (!this.opts.features().acpElicitation) {
      this.log("elicitation/create declined (flag_off): features.acpElicitation is off");
      return DECLINE;
    }
    const request = parseCreateRequest(params);
    if (!request.ok) return this.declined(request.reason, request.detail);
    if (this.opts.knowsSession !== undefined && !this.opts.knowsSession(request.value.sessionId)) {
      return this.declined("unknown_session", "sessionId is not one of this agent's sessions");
    }
    const limit = this.opts.maxPending ?? MAX_PENDING_ELICITATIONS;
    if (this.pending.size >= limit)
      return this.declined("too_many_pending", `${this.pending.size} elicitations are already pending (at most ${limit})`);
    const mapped = mapElicitation(request.value);
    if (!mapped.ok) return this.declined(mapped.reason, mapped.detail);
    if (signal.aborted) return CANCEL;
    return new Promise<ElicitationResponse>((resolve) => this.park(mapped.value, signal, resolve));
  }

  /**
   * Applies the operator's answer. Throws ProtocolError VALIDATION_ERROR (pending stays live) for an
   * answer the questions cannot hold, NOT_FOUND when the pending is unknown or already settled.
   */
  respond(params: ElicitationRespondParams): { success: true } {
    const parsed = ElicitationRespondParamsSchema.safeParse(params);
    if (!parsed.success) {
      throw new ProtocolError(
        "VALIDATION_ERROR",
        "invalid agent.elicitations.respond params",
        parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
      );
    }
    return this.respondValidated(parsed.data);
  }

  /**
   * `respond` for params that already passed ElicitationRespondParamsSchema (the dispatcher parses
   * every action's params with it), so they are not parsed twice.
   */
  respondValidated(params: ElicitationRespondParams): { success: true } {
    const pending = this.pending.get(params.pending_id);
    if (pending === undefined) {
      throw new ProtocolError("NOT_FOUND", `no pending elicitation ${JSON.stringify(params.pending_id)}`);
    }
    const response = buildResponse(pending.questions, params);
    // The settle event carries the answer as given and who gave it: it is the one record of this
    // outcome, so the backend never has to pair it with the request it forwarded.
    const answer: OperatorAnswer = {
      answers: params.answers,
      ...(params.reject_reason !== undefined && { reject_reason: params.reject_reason }),
      ...(params.user !== undefined && { user: params.user }),
    };
    if (response.action === "decline") this.settle(pending, response, "declined", "operator_rejected", answer);
    else this.settle(pending, response, "answered", "operator", answer);
    return { success: true };
  }

  /** Turn cancelled: answers `cancel` to every pending of that session (AC-15). */
  cancelSession(sessionId: string, reason: string): void {
    for (const p of [...this.pending.values()]) {
      if (p.sessionId === sessionId) this.settle(p, CANCEL, "cancelled", reason);
    }
  }

  /** Shutdown or agent gone: answers `cancel` to every pending. */
  cancelAll(reason: string): void {
    for (const p of [...this.pending.values()]) this.settle(p, CANCEL, "cancelled", reason);
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /** How many elicitations are waiting for the operator. */
  get pendingCount(): number {
    return this.pending.size;
  }

  private declined(reason: string, detail: string): ElicitationResponse {
    this.log(`elicitation/create declined (${reason}): ${detail}`);
    return DECLINE;
  }

  private park(mapped: MappedElicitation, signal: AbortSignal, resolve: (r: ElicitationResponse) => void): void {
    const id = this.newId();
    if (this.pending.has(id)) {
      this.log(`elicitation/create declined: pending id ${id} is already in use`);
      resolve(DECLINE);
      return;
    }
    const deadlineMs = this.clock.now() + this.opts.answerTimeoutMs;
    const event = AGENT_EVENTS["elicitation.requested"].safeParse({
      pending_id: id,
      session_id: mapped.sessionId,
      tool_call_id: mapped.toolCallId,
      message: mapped.message,
      questions: mapped.questions,
      deadline: new Date(deadlineMs).toISOString(),
    });
    if (!event.success) {
      this.log(`elicitation/create declined: mapped questions do not fit the event schema`);
      resolve(DECLINE);
      return;
    }
    const pending: Pending = {
      id,
      sessionId: mapped.sessionId,
      questions: mapped.questions,
      deadlineMs,
      signal,
      onAbort: () => this.settle(pending, CANCEL, "cancelled", abortReason(signal)),
      resolve,
    };
    // Registered before the event goes out, so an answer that arrives during emit finds it.
    this.pending.set(id, pending);
    signal.addEventListener("abort", pending.onAbort, { once: true });
    this.armDeadline(deadlineMs);
    try {
      this.opts.emit("elicitation.requested", event.data);
    } catch (err) {
      this.log(`elicitation.requested could not be emitted: ${err instanceof Error ? err.message : String(err)}`);
      this.settle(pending, DECLINE, "declined", "undeliverable");
    }
  }

  /** Makes sure the timer fires no later than `deadlineMs` (setTimeout's ceiling re-arms). */
  private armDeadline(deadlineMs: number): void {
    if (this.timer !== undefined) {
      if (this.timerAt <= deadlineMs) return;
      this.clock.clearTimeout(this.timer);
    }
    this.timerAt = deadlineMs;
    const remaining = Math.max(0, deadlineMs - this.clock.now());
    this.timer = this.clock.setTimeout(() => this.onTimer(), Math.min(remaining, MAX_TIMER_MS));
  }

  /** Declines every pending whose deadline has passed (AC-64), then re-arms for the earliest left. */
  private onTimer(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.clock.now();
    let next = Infinity;
    for (const p of [...this.pending.values()]) {
      if (p.deadlineMs <= now) this.settle(p, DECLINE, "timed_out", "deadline");
      else if (this.pending.get(p.id) === p) next = Math.min(next, p.deadlineMs);
    }
    if (next !== Infinity) this.armDeadline(next);
  }

  /**
   * The single exit: removes the pending first, so every later path finds nothing. `answer` is the
   * operator's, when the operator settled it.
   */
  private settle(pending: Pending, response: ElicitationResponse, outcome: ElicitationOutcome, reason: string, answer?: OperatorAnswer): void {
    if (this.pending.get(pending.id) !== pending) return;
    this.pending.delete(pending.id);
    pending.signal.removeEventListener("abort", pending.onAbort);
    try {
      const settled: AgentEvent<"elicitation.settled"> = { pending_id: pending.id, outcome, reason, ...answer };
      this.opts.emit("elicitation.settled", settled);
    } catch (err) {
      this.log(`elicitation.settled could not be emitted: ${err instanceof Error ? err.message : String(err)}`);
    }
    pending.resolve(response);
  }

  private log(message: string): void {
    this.opts.log?.(message);
  }
}
