// What one run observes, shared by the product path and the floor: per-session answer start times,
// ask and answer latency samples, and the span used for the round-trip rate. No I/O; the caller
// passes every time in.

/** Latency samples and the time span of one run (all times from benchNow()). */
export class RunRecorder {
  readonly asks: number[] = [];
  readonly answers: number[] = [];
  readonly errors: string[] = [];
  /** When each session started POSTing the answer to its request `seq` (index [session][seq]). */
  private readonly postStarts = new Map<number, number[]>();
  private firstSent = Infinity;
  private lastReceived = -Infinity;
  private answered = 0;

  /**
   * The operator was notified of request `seq` of `session` at `receivedAt`. The request also tells
   * when the previous answer reached the agent, which closes that answer's sample.
   */
  onAsk(session: number, seq: number, sentAt: number, prevReceivedAt: number | null, receivedAt: number): void {
    this.asks.push(receivedAt - sentAt);
    this.firstSent = Math.min(this.firstSent, sentAt);
    if (prevReceivedAt !== null) this.closeAnswer(session, seq - 1, prevReceivedAt);
  }

  /** The operator starts answering request `seq` of `session` now. */
  onAnswerStart(session: number, seq: number, at: number): void {
    let list = this.postStarts.get(session);
    if (list === undefined) this.postStarts.set(session, (list = []));
    list[seq] = at;
  }

  /** The turn of `session` ended after `count` requests; the last answer reached the agent at `lastReceivedAt`. */
  onDone(session: number, count: number, lastReceivedAt: number | null): void {
    if (lastReceivedAt !== null) this.closeAnswer(session, count, lastReceivedAt);
  }

  onError(message: string): void {
    this.errors.push(message);
  }

  /** Answers that reached the agent. */
  get roundTrips(): number {
    return this.answered;
  }

  /** Round trips per second, from the first ask sent to the last answer received. */
  rate(): number {
    const span = this.lastReceived - this.firstSent;
    return span > 0 ? (this.answered * 1000) / span : 0;
  }

  private closeAnswer(session: number, seq: number, receivedAt: number): void {
    const start = this.postStarts.get(session)?.[seq];
    if (start === undefined) {
      this.errors.push(`session ${session}: answer ${seq} reached the agent but was never sent`);
      return;
    }
    this.answers.push(receivedAt - start);
    this.answered++;
    this.lastReceived = Math.max(this.lastReceived, receivedAt);
  }
}

/** What the orchestrator reads from a finished run. */
export type RecorderLike = Pick<RunRecorder, "asks" | "answers" | "errors" | "roundTrips" | "rate">;
