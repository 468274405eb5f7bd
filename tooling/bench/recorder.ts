// What one run observes, shared by the product path and the floor: per-session answer start times,
// ask and answer latency samples, and the span used for the round-trip rate. No I/O; the caller
// passes every time in.

/**
 * Where each sample came from, index for index with `asks` or `answers`: the session, the request's
 * number, and when it started (the ask's send time; the answer's POST start). Plain number arrays,
 * so keeping them costs the operator (a measured process) a few pushes per sample, not an object.
 */
export interface SampleOrigins {
  session: number[];
  seq: number[];
  at: number[];
}

const origins = (): SampleOrigins => ({ session: [], seq: [], at: [] });

function note(o: SampleOrigins, session: number, seq: number, at: number): void {
  o.session.push(session);
  o.seq.push(seq);
  o.at.push(at);
}

/** Latency samples and the time span of one run (all times from benchNow()). */
export class RunRecorder {
  readonly asks: number[] = [];
  readonly answers: number[] = [];
  readonly askOrigins: SampleOrigins = origins();
  readonly answerOrigins: SampleOrigins = origins();
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
    note(this.askOrigins, session, seq, sentAt);
    this.firstSent = Math.min(this.firstSent, sentAt);
    if (prevReceivedAt !== null) this.closeAnswer(session, seq - 1, prevReceivedAt);
  }

  /** The operator starts answering request `seq` of `session` now. */
  onAnswerStart(session: number, seq: number, at: number): void {
    let list = this.postStarts.get(session);
    if (list === undefined) {
      list = [];
      this.postStarts.set(session, list);
    }
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
    note(this.answerOrigins, session, seq, start);
    this.answered++;
    this.lastReceived = Math.max(this.lastReceived, receivedAt);
  }
}

/** What the orchestrator reads from a finished run. */
export type RecorderLike = Pick<RunRecorder, "asks" | "answers" | "askOrigins" | "answerOrigins" | "errors" | "roundTrips" | "rate">;

/** Which pass a run's samples belong to, for `sampleLines`. */
export interface PassLabel {
  sessions: number;
  block: number;
  side: "floor" | "product" | "lean";
}

/**
 * One JSON line per sample of a run (`npm run bench -- --samples FILE`), for finding out which
 * sessions and which moment a slow sample belongs to: `{"sessions","block","side","kind","session",
 * "seq","at","ms"}`, `at` in ms of benchNow() (the ask's send time, the answer's POST start).
 */
export function sampleLines(rec: Pick<RecorderLike, "asks" | "answers" | "askOrigins" | "answerOrigins">, label: PassLabel): string {
  const lines: string[] = [];
  const add = (kind: "ask" | "answer", ms: number[], o: SampleOrigins) => {
    for (let i = 0; i < ms.length; i++) {
      lines.push(JSON.stringify({ ...label, kind, session: o.session[i], seq: o.seq[i], at: o.at[i], ms: ms[i] }));
    }
  };
  add("ask", rec.asks, rec.askOrigins);
  add("answer", rec.answers, rec.answerOrigins);
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
