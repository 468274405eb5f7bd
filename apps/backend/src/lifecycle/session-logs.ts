// The agent's stderr, kept per session for the operator: a bounded ring of recent lines with
// secrets redacted, served by GET /sessions/:id/logs and pushed live as `session.log`.
import type { SessionLogLine, SessionLogNotification } from "@kandev/protocol";
import { noRedaction, type Redact } from "./redaction.js";

export const LOG_MAX_LINES = 500;
export const LOG_MAX_BYTES = 64 * 1024;
/** Sessions whose log is kept; the least recently written is dropped past this. */
export const LOG_MAX_SESSIONS = 200;
/** A single line is cut here, so one huge line cannot evict the whole ring. */
export const LOG_MAX_LINE_CHARS = 4096;

/** Lines in arrival order, at most `maxLines` and about `maxBytes` of text (oldest dropped first). */
export class LogRing {
  private readonly items: SessionLogLine[] = [];
  private bytes = 0;

  constructor(
    private readonly maxLines = LOG_MAX_LINES,
    private readonly maxBytes = LOG_MAX_BYTES,
  ) {}

  push(line: SessionLogLine): void {
    this.items.push(line);
    this.bytes += Buffer.byteLength(line.text);
    while (this.items.length > this.maxLines || (this.bytes > this.maxBytes && this.items.length > 1)) {
      this.bytes -= Buffer.byteLength(this.items.shift()!.text);
    }
  }

  lines(): SessionLogLine[] {
    return this.items.map((l) => ({ ...l }));
  }
}

/** Where new lines go (the /ws hub). */
export interface LogPublisher {
  sessionLog(payload: SessionLogNotification): void;
}

export interface SessionLogsOptions {
  publisher: LogPublisher;
  maxLines?: number;
  maxBytes?: number;
  maxSessions?: number;
  now?: () => Date;
}

/** Every session's agent log, in memory (a restarted board starts with empty logs). */
export class SessionLogs {
  private readonly rings = new Map<string, { ring: LogRing; redact: Redact }>();

  constructor(private readonly options: SessionLogsOptions) {}

  /** Sets the redaction of a session's coming lines (each start and resume; redaction.ts). */
  configure(sessionId: string, redact: Redact): void {
    const entry = this.entry(sessionId);
    entry.redact = redact;
  }

  /** Records one stderr line and pushes it to the session's subscribers. */
  append(sessionId: string, taskId: string, text: string): void {
    const entry = this.entry(sessionId);
    const cut = text.length > LOG_MAX_LINE_CHARS ? `${text.slice(0, LOG_MAX_LINE_CHARS)}…` : text;
    const line = { at: (this.options.now?.() ?? new Date()).toISOString(), text: entry.redact(cut) };
    entry.ring.push(line);
    this.options.publisher.sessionLog({ session_id: sessionId, task_id: taskId, lines: [line] });
  }

  /** The kept lines, oldest first (empty for a session with none). */
  list(sessionId: string): SessionLogLine[] {
    return this.rings.get(sessionId)?.ring.lines() ?? [];
  }

  private entry(sessionId: string) {
    let entry = this.rings.get(sessionId);
    if (entry !== undefined) {
      // Most recently written last, so eviction drops the session quiet for the longest.
      this.rings.delete(sessionId);
    } else {
      entry = { ring: new LogRing(this.options.maxLines, this.options.maxBytes), redact: noRedaction };
    }
    this.rings.set(sessionId, entry);
    const max = this.options.maxSessions ?? LOG_MAX_SESSIONS;
    while (this.rings.size > max) this.rings.delete(this.rings.keys().next().value!);
    return entry;
  }
}
