/**
 * Newline-delimited text over a pipe whose peer is trusted to frame but not to be small: the
 * agent stream between the backend and agentctl (one JSON envelope per line). Unlike NdJsonLines
 * (ACP, where a line over the limit fails the whole stream, as the SDK does), a line over the
 * limit here is dropped alone and reported once, when its newline arrives, so the channel, and
 * every other session multiplexed on it, goes on. Memory stays bounded: the dropped line's bytes
 * are counted, never kept. Pure (no I/O), so it is tested directly.
 */

const LF = 0x0a;
const CR = 0x0d;

/** A complete line (without its LF or CRLF), or a line over the limit that was dropped. */
export type FramedLine = { line: string } | { tooLong: number };

export class LineFramer {
  private parts: Buffer[] = [];
  private bytes = 0;
  /** Bytes of the current line seen past the limit is reached: it is being skipped. */
  private skipped: number | null = null;

  constructor(private readonly maxBytes: number) {}

  /** What `chunk` completes, in order; blank lines are skipped. */
  push(chunk: Buffer): FramedLine[] {
    const out: FramedLine[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(LF); nl !== -1; nl = chunk.indexOf(LF, start)) {
      this.add(chunk.subarray(start, nl));
      this.end(out);
      start = nl + 1;
    }
    if (start < chunk.length) this.add(chunk.subarray(start));
    return out;
  }

  /** The last line when the input ended without a newline, if any. */
  flush(): FramedLine[] {
    const out: FramedLine[] = [];
    if (this.bytes > 0 || this.skipped !== null) this.end(out);
    return out;
  }

  private add(part: Buffer): void {
    if (part.length === 0) return;
    if (this.skipped !== null) {
      this.skipped += part.length;
      return;
    }
    // A trailing CR may be half of a CRLF: it does not count against the limit.
    const counted = this.bytes + part.length - (part[part.length - 1] === CR ? 1 : 0);
    if (counted > this.maxBytes) {
      this.skipped = this.bytes + part.length;
      this.parts = [];
      this.bytes = 0;
      return;
    }
    this.parts.push(part);
    this.bytes += part.length;
  }

  private end(out: FramedLine[]): void {
    if (this.skipped !== null) {
      out.push({ tooLong: this.skipped });
      this.skipped = null;
      return;
    }
    let line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.bytes);
    this.parts = [];
    this.bytes = 0;
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, -1);
    if (line.length > 0) out.push({ line: line.toString("utf8") });
  }
}
