// The one redaction rule for what an agent emits: every value of its profile's env (it exists to
// carry the agent's keys) and the board's own credential-looking values become "[redacted]"
// wherever the agent's words are kept or pushed: the agent log, the session's `error`, the turn's
// error, `error` and status messages with their metadata. Pure, so it is tested directly.
import { looksSecret } from "@kandev/agentctl";

/** What a redacted value reads as, everywhere. */
export const REDACTED = "[redacted]";
/** Shorter values are not redacted: "1" or "true" would shred every line and hide nothing secret. */
export const REDACT_MIN_CHARS = 6;

/** Text in, the same text with every secret value replaced. */
export type Redact = (text: string) => string;

/** The redactor of a session with no secrets. */
export const noRedaction: Redact = (text) => text;

/**
 * Replaces every occurrence of a secret value with "[redacted]". Longer values are replaced first,
 * so a secret that contains another is not left half visible.
 */
export function makeRedactor(secrets: Iterable<string>): Redact {
  const values = [...new Set([...secrets].filter((s) => s.length >= REDACT_MIN_CHARS))].sort((a, b) => b.length - a.length);
  if (values.length === 0) return noRedaction;
  return (text) => values.reduce((out, v) => out.split(v).join(REDACTED), text);
}

/**
 * A copy of `value` with every string in it redacted, at any depth of arrays and plain objects
 * (message metadata: a stderr tail, a failure's last line). Keys are names the board chose and
 * stay; numbers, booleans and null stay.
 */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (redact === noRedaction) return value;
  return walk(value, redact) as T;
}

function walk(value: unknown, redact: Redact): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, redact));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, redact);
    return out;
  }
  return value;
}

/**
 * The board's own values to redact from every session: those that look like credentials (by
 * name or value, the rule that also keeps them out of agents' environments, agent-env.ts in
 * agentctl). An agent never receives them, but one may still find a copy (a file, a shell rc).
 */
export function boardSecrets(boardEnv: Readonly<Record<string, string>>): string[] {
  return Object.entries(boardEnv)
    .filter(([name, value]) => looksSecret(name, value))
    .map(([, value]) => value);
}

/** One session's secrets: every value of its profile's env, then the board's own. */
export function secretsFor(profileEnv: Record<string, string> | null, board: readonly string[]): string[] {
  return [...Object.values(profileEnv ?? {}), ...board];
}
