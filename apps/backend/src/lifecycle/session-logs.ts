// The agent's stderr, kept per session for the operator: a bounded ring of recent lines with
// secrets redacted, served by GET /sessions/:id/logs and pushed live as `session.log`.
import type { SessionLogLine, SessionLogNotification } from "@kandev/protocol";

export const LOG_MAX_LINES = 500;
export const LOG_MAX_BYTES = 64 * 1024;
/** Sessions whose log is kept; the least recently written is dropped past this. */
export const LOG_MAX_SESSIONS = 200;
/** Shorter values are not redacted: "1" or "true" would shred every line and hide nothing secret. */
export const REDACT_MIN_CHARS = 6;
/** A single line is cut here, so one huge line cannot evict the whole ring. */
export const LOG_MAX_LINE_CHARS = 4096;
const REDACTED = "[redacted]";

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

/**
 * Replaces every occurrence of a secret value with "[redacted]". Longer values are replaced first,
 * so a secret that contains another is not left half visible.
 */
export function makeRedactor(secrets: Iterable<string>): (text: string) => string {
  const values = [...new Set([...secrets].filter((s) => s.length >= REDACT_MIN_CHARS))].sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  return (text) => values.reduce((out, v) => out.split(v).join(REDACTED), text);
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;

/**
 * The values to hide in one session's log: every value of the profile's env (it exists to carry
 * the agent's settings, API keys first) and the board's own env values whose names look secret.
 */
export function secretsFor(profileEnv: Record<string, string> | null, boardEnv: Record<string, string>): string[] {
  const out = Object.values(profileEnv ?? {});
  for (const [name, value] of Object.entries(boardEnv)) if (SECRET_NAME.test(name)) out.push(value);
  return out;
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
  private readonly rings = new Map<string, { ring: LogRing; redact: (text: string) => string }>();

  constructor(private readonly options: SessionLogsOptions) {}

  /** Sets the secrets to redact for a session's coming lines (each start and resume). */
  configure(sessionId: string, secrets: Iterable<string>): void {
    const entry = this.entry(sessionId);
    entry.redact = makeRedactor(secrets);
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
      entry = { ring: new LogRing(this.options.maxLines, this.options.maxBytes), redact: (t: string) => t };
    }
    this.rings.set(sessionId, entry);
    const max = this.options.maxSessions ?? LOG_MAX_SESSIONS;
    while (this.rings.size > max) this.rings.delete(this.rings.keys().next().value!);
    return entry;
  }
}
