// Idle agents go away: a session waiting for its next prompt for KANDEV_SESSION_IDLE_TIMEOUT has
// its agent stopped (the manager closes it; its next prompt resumes it like after a restart).
// The decision is a plain function; IdleWatch is the thin timer shell around it.
import type { SessionState } from "@kandev/protocol";

/** What the decision needs to know about one live session. */
export interface IdleFacts {
  state: SessionState;
  /** Questions and permission requests of the session still waiting for the operator. */
  openRequests: number;
  /** When the session last did anything (a prompt, an agent event), ms since the epoch. */
  lastActivityMs: number;
}

export type IdleDecision = { close: true } | { close: false; checkAgainInMs: number };

/**
 * Close a session once it has waited for its next prompt for `timeoutMs` with nothing asked of the
 * operator. A turn that runs, and a question or permission still open, keep the agent: the agent
 * must be there to hear the answer. Otherwise look again when the timeout would be reached.
 */
export function idleDecision(facts: IdleFacts, nowMs: number, timeoutMs: number): IdleDecision {
  if (facts.state !== "WAITING_FOR_INPUT" || facts.openRequests > 0) return { close: false, checkAgainInMs: timeoutMs };
  const idleFor = Math.max(0, nowMs - facts.lastActivityMs);
  return idleFor >= timeoutMs ? { close: true } : { close: false, checkAgainInMs: timeoutMs - idleFor };
}

export interface IdleWatchOptions {
  /** 0 turns the watch off (agents stay until their session ends). */
  timeoutMs: number;
  /** The session's facts now, or undefined once it is no longer live. */
  facts: (sessionId: string, lastActivityMs: number) => IdleFacts | undefined;
  close: (sessionId: string) => void;
  now?: () => number;
}

/** One timer per live session, re-armed from idleDecision; activity only moves a timestamp. */
export class IdleWatch {
  private readonly sessions = new Map<string, { lastActivityMs: number; timer: NodeJS.Timeout }>();
  private readonly now: () => number;

  constructor(private readonly options: IdleWatchOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Starts watching a session that just became live. */
  watch(sessionId: string): void {
    if (this.options.timeoutMs <= 0) return;
    this.forget(sessionId);
    this.sessions.set(sessionId, { lastActivityMs: this.now(), timer: this.arm(sessionId, this.options.timeoutMs) });
  }

  /** The session did something: its idle time starts over. */
  touch(sessionId: string): void {
    const entry = this.sessions.get(sessionId);
    if (entry !== undefined) entry.lastActivityMs = this.now();
  }

  forget(sessionId: string): void {
    const entry = this.sessions.get(sessionId);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.sessions.delete(sessionId);
  }

  stop(): void {
    for (const id of [...this.sessions.keys()]) this.forget(id);
  }

  private arm(sessionId: string, ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => this.check(sessionId), ms);
    timer.unref();
    return timer;
  }

  private check(sessionId: string): void {
    const entry = this.sessions.get(sessionId);
    if (entry === undefined) return;
    const facts = this.options.facts(sessionId, entry.lastActivityMs);
    if (facts === undefined) {
      this.forget(sessionId);
      return;
    }
    const decision = idleDecision(facts, this.now(), this.options.timeoutMs);
    if (decision.close) {
      this.forget(sessionId);
      this.options.close(sessionId);
    } else {
      entry.timer = this.arm(sessionId, decision.checkAgainInMs);
    }
  }
}
