// Pure helpers for the agent's stderr: a bounded tail, a line splitter and a rate limit.

/** Keeps the last `maxChars` characters written to it (the `stderr_tail` of `agent.exited`). */
export class TailBuffer {
  private buf = "";
  constructor(private readonly maxChars = 4096) {}
  append(chunk: string): void {
    this.buf += chunk;
    if (this.buf.length > this.maxChars * 2) this.buf = this.buf.slice(-this.maxChars);
  }
  text(): string {
    return this.buf.length > this.maxChars ? this.buf.slice(-this.maxChars) : this.buf;
  }
}

/** Splits a byte-less text stream into lines; lines longer than `maxLine` are cut and marked. */
export class LineSplitter {
  private partial = "";
  constructor(private readonly maxLine = 2000) {}
  push(chunk: string): string[] {
    this.partial += chunk;
    const lines: string[] = [];
    for (let nl = this.partial.indexOf("\n"); nl >= 0; nl = this.partial.indexOf("\n")) {
      lines.push(this.cut(this.partial.slice(0, nl).replace(/\r$/, "")));
      this.partial = this.partial.slice(nl + 1);
    }
    // A runaway line without a newline must not grow without bound.
    if (this.partial.length > this.maxLine) {
      lines.push(this.cut(this.partial));
      this.partial = "";
    }
    return lines;
  }
  flush(): string[] {
    const rest = this.partial;
    this.partial = "";
    return rest.length > 0 ? [this.cut(rest)] : [];
  }
  private cut(line: string): string {
    return line.length > this.maxLine ? `${line.slice(0, this.maxLine)}… [truncated]` : line;
  }
}

/**
 * Token bucket: at most `burst` lines at once, refilled at `perSecond`. Lines over the limit are
 * counted, and the next allowed line is preceded by a note saying how many were dropped, so the
 * backend sees that output was lost rather than a silent gap.
 */
export class LineRateLimiter {
  private tokens: number;
  private last: number;
  private dropped = 0;
  constructor(
    private readonly perSecond = 50,
    private readonly burst = 200,
    now = 0,
  ) {
    this.tokens = burst;
    this.last = now;
  }
  /** Returns the lines to forward now for this one input line (0, 1 or 2 with the drop note). */
  admit(line: string, now: number): string[] {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) {
      this.dropped += 1;
      return [];
    }
    this.tokens -= 1;
    if (this.dropped === 0) return [line];
    const note = `[agentctl: ${this.dropped} stderr line(s) not forwarded (rate limit); see stderr_tail]`;
    this.dropped = 0;
    return [note, line];
  }
}
