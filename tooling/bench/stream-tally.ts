// What the /ws client of one streaming case keeps, product or floor alike: the bytes and frames it
// received, each session's reply as rebuilt so far, when each reply was complete and when each
// turn ended. The sides feed it their own frames (streaming-product.ts, streaming-floor.ts).
import { withTimeout } from "./product.js";
import { ReplyRebuild } from "./reply-rebuild.js";

interface SessionTally {
  rebuild: ReplyRebuild;
  /** When the frame that completed the reply was received (benchNow), or null. */
  completeAt: number | null;
  /** When the agent wrote its last chunk (benchNow), once known. */
  lastChunkAt: number | null;
  ended: boolean;
}

export class CaseTally {
  wsBytes = 0;
  frames = 0;
  private readonly sessions = new Map<string, SessionTally>();
  private wake: (() => void) | null = null;
  private failure: Error | null = null;

  /** `keys` name the sessions streaming in this case; each must rebuild exactly `expected`. */
  constructor(
    keys: readonly string[],
    readonly expected: string,
  ) {
    for (const k of keys) this.sessions.set(k, { rebuild: new ReplyRebuild(), completeAt: null, lastChunkAt: null, ended: false });
  }

  /** One frame of `bytes` payload bytes reached the client. */
  frame(bytes: number): void {
    this.wsBytes += bytes;
    this.frames += 1;
  }

  /** The rebuild of session `key`, or undefined when that session is not streaming in this case. */
  rebuild(key: string): ReplyRebuild | undefined {
    return this.sessions.get(key)?.rebuild;
  }

  /** Call after feeding a frame's text to `rebuild(key)`: notes the time the reply became complete. */
  fed(key: string, receivedAt: number): void {
    const s = this.sessions.get(key);
    if (s === undefined) return;
    // Fail loudly at the first bad frame: a broken stream's figures are worth nothing.
    if (s.rebuild.errors.length > 0) {
      this.fail(new Error(`session ${key}: ${s.rebuild.errors[0]}`));
      return;
    }
    if (s.completeAt !== null || s.rebuild.chars < this.expected.length) return;
    s.completeAt = receivedAt;
    this.wake?.();
  }

  lastChunk(key: string, at: number): void {
    const s = this.sessions.get(key);
    if (s !== undefined) s.lastChunkAt = at;
  }

  ended(key: string): void {
    const s = this.sessions.get(key);
    if (s === undefined) return;
    s.ended = true;
    this.wake?.();
  }

  /** Ends the case with an error (a session failed, the socket closed). */
  fail(err: Error): void {
    this.failure ??= err;
    this.wake?.();
  }

  /** Resolves once every reply is complete and every turn ended; rejects on fail() or after `timeoutMs`. */
  async settled(timeoutMs: number): Promise<void> {
    const done = () => this.failure !== null || [...this.sessions.values()].every((s) => s.ended && s.completeAt !== null);
    await withTimeout(
      new Promise<void>((resolve) => {
        this.wake = () => done() && resolve();
        this.wake();
      }),
      timeoutMs,
      () => this.progress(),
    );
    this.wake = null;
    if (this.failure !== null) throw this.failure;
  }

  /**
   * Checks every reply against the expected text and returns each session's last-frame delay (ms);
   * throws, naming the session, when a reply is not exact or an agent's last-chunk time is missing.
   */
  verify(): number[] {
    const delays: number[] = [];
    for (const [key, s] of this.sessions) {
      const why = s.rebuild.verify(this.expected);
      if (why !== null) throw new Error(`session ${key}: the reply rebuilt from /ws ${why}`);
      if (s.lastChunkAt === null || s.completeAt === null) throw new Error(`session ${key}: no time for the agent's last chunk`);
      delays.push(s.completeAt - s.lastChunkAt);
    }
    return delays;
  }

  /** How far each session got, for a timeout's message. */
  progress(): string {
    return [...this.sessions.entries()]
      .map(
        ([k, s]) =>
          `${k}: ${s.rebuild.chars}/${this.expected.length} chars${s.ended ? ", turn ended" : ""}${s.rebuild.errors.length > 0 ? `, ${s.rebuild.errors[0]}` : ""}`,
      )
      .join("; ");
  }
}
