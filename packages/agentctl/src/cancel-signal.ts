/**
 * The cancellation of one ACP request agentctl answers itself.
 *
 * Handlers only ever read `aborted` and `reason` and add or remove one "abort" listener, which is
 * what `CancelSignal` names: an AbortSignal has all of it (the SDK hands one to the handlers it
 * calls), and so has `RequestCancel`, the lighter one agentctl creates per `elicitation/create`.
 * Node's AbortController builds an EventTarget, an AbortSignal and an event per request, and its
 * listener bookkeeping runs through several layers of builtins; in 50 agentctls that each see too
 * few questions for V8 to optimise any of it, that was about 5% of agentctl's time per question
 * (docs/BENCHMARKS.md). The behaviour handlers rely on is the same: listeners run once, in the order
 * they were added, on the first abort only; one added after the abort never runs; the reason
 * defaults to an AbortError.
 */

export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

export class RequestCancel implements CancelSignal {
  #aborted = false;
  #reason: unknown = undefined;
  private listeners: Array<() => void> = [];

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** The signal to hand a handler (this object; named as AbortController's is). */
  get signal(): CancelSignal {
    return this;
  }

  addEventListener(type: "abort", listener: () => void): void {
    if (type !== "abort" || this.#aborted || this.listeners.includes(listener)) return;
    this.listeners.push(listener);
  }

  removeEventListener(type: "abort", listener: () => void): void {
    if (type !== "abort") return;
    const i = this.listeners.indexOf(listener);
    if (i >= 0) this.listeners.splice(i, 1);
  }

  /**
   * Aborts once: later calls do nothing. A listener that throws does not stop the others; the first
   * such error is thrown from here once every listener has run.
   */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
    const listeners = this.listeners;
    this.listeners = [];
    let failure: { error: unknown } | undefined;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
  }
}
