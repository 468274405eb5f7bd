/**
 * Orders `turn.ended` after the turn's last `session/update`.
 *
 * The ACP SDK resolves a response as soon as it is read, but runs notification handlers through an
 * async chain, so the final `session/update` of a turn can be handled after the `session/prompt`
 * response that followed it on the wire. The stream tap counts updates as they are read (`seen`),
 * the handler counts them as they are handled (`handled`), and `drain()` waits until every update
 * read so far has been handled. `maxWaitMs` bounds the wait for updates the SDK rejects without
 * calling the handler (invalid params), so a turn can never hang on one.
 */
export class UpdateBarrier {
  private seenCount = 0;
  private handledCount = 0;
  private waiters: { target: number; resolve: () => void }[] = [];

  constructor(private readonly maxWaitMs = 1000) {}

  seen(): void {
    this.seenCount += 1;
  }

  handled(): void {
    this.handledCount += 1;
    this.release();
  }

  /** Resolves once every update seen before this call has been handled (or after maxWaitMs). */
  drain(): Promise<void> {
    const target = this.seenCount;
    if (this.handledCount >= target) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = { target, resolve: () => {} };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve();
      }, this.maxWaitMs);
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(waiter);
    });
  }

  private release(): void {
    const ready = this.waiters.filter((w) => this.handledCount >= w.target);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => this.handledCount < w.target);
    for (const w of ready) w.resolve();
  }
}
