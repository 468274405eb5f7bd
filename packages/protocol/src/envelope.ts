import { z } from "zod";

/**
 * Version of the agent-stream and browser-WebSocket contracts. Bump on any breaking change to a
 * schema in this package; peers log a mismatch instead of guessing.
 */
export const PROTOCOL_VERSION = 1 as const;

/** Error codes that survive every hop (agentctl -> backend -> REST). Never flatten them to text. */
export const ErrorCodeSchema = z.enum([
  "BAD_REQUEST",
  "NOT_FOUND",
  "VALIDATION_ERROR",
  "CONFLICT",
  "UNAUTHORIZED",
  "UNKNOWN_ACTION",
  "INTERNAL_ERROR",
  "NOT_CONNECTED",
  "TIMEOUT",
  // A per-connection limit was reached (e.g. /ws subscriptions per socket); nothing was changed.
  "LIMIT_EXCEEDED",
  // The agent refused or failed a request made of it (ACP session/set_mode, ...); the message is its own.
  "AGENT_ERROR",
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ErrorPayloadSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  details: z.unknown().optional(),
});
export type ErrorPayload = z.infer<typeof ErrorPayloadSchema>;

export const EnvelopeTypeSchema = z.enum(["request", "response", "notification", "error"]);
export type EnvelopeType = z.infer<typeof EnvelopeTypeSchema>;

/**
 * One frame on the agent stream (backend <-> agentctl) and on the browser WebSocket.
 * `id` pairs a request with its response or error; notifications carry none. `session` says which
 * of the sessions multiplexed on one agentctl's stream a frame belongs to (every frame on the
 * agent stream carries it; the browser WebSocket does not use it).
 */
export const EnvelopeSchema = z.object({
  id: z.string().min(1).max(128).optional(),
  session: z.string().min(1).max(128).optional(),
  type: EnvelopeTypeSchema,
  action: z.string().min(1).max(128),
  payload: z.unknown(),
});
export type Envelope = z.infer<typeof EnvelopeSchema>;

/** An error carried as a value with its code, so it can cross a boundary intact. */
export class ProtocolError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = "ProtocolError";
    this.code = code;
    this.details = details;
  }
  toPayload(): ErrorPayload {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** Maps any thrown value to an error payload: zod failures are VALIDATION_ERROR, the rest INTERNAL_ERROR. */
export function toErrorPayload(err: unknown): ErrorPayload {
  if (err instanceof ProtocolError) return err.toPayload();
  if (err instanceof z.ZodError) {
    return {
      code: "VALIDATION_ERROR",
      message: "payload failed validation",
      details: err.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
    };
  }
  return { code: "INTERNAL_ERROR", message: err instanceof Error ? err.message : String(err) };
}

export function requestFrame(id: string, action: string, payload: unknown): Envelope {
  return { id, type: "request", action, payload };
}
export function responseFrame(id: string, action: string, payload: unknown): Envelope {
  return { id, type: "response", action, payload };
}
export function errorFrame(id: string | undefined, action: string, error: ErrorPayload): Envelope {
  return id === undefined ? { type: "error", action, payload: error } : { id, type: "error", action, payload: error };
}
export function notificationFrame(action: string, payload: unknown): Envelope {
  return { type: "notification", action, payload };
}
/** `frame` tagged with the agent-stream session it belongs to (keys in the schema's order). */
export function inSession(session: string, frame: Envelope): Envelope {
  const { id, type, action, payload } = frame;
  return id === undefined ? { session, type, action, payload } : { id, session, type, action, payload };
}

const ENVELOPE_TYPES: ReadonlySet<unknown> = new Set(EnvelopeTypeSchema.options);

/** Length in code points, as zod's string min/max count it (a surrogate pair is one). */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--;
      i++;
    }
  }
  return n;
}

/** A string of 1 to 128 code points (EnvelopeSchema's `id`, `session` and `action`). */
function isName(v: unknown): v is string {
  return typeof v === "string" && v.length > 0 && (v.length <= 128 || codePoints(v) <= 128);
}

/**
 * `EnvelopeSchema.safeParse` written out, for the hot path: every frame of both WebSockets passes
 * here. Same verdicts and the same output (only the schema's keys, in its order; `payload`
 * required, any value); envelope.test.ts checks the two agree on arbitrary input.
 */
export function checkEnvelope(value: unknown): Envelope | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  const { id, session, type, action, payload } = o;
  if (id !== undefined && !isName(id)) return null;
  if (session !== undefined && !isName(session)) return null;
  if (!ENVELOPE_TYPES.has(type) || !isName(action) || !("payload" in o)) return null;
  const envelope = { type, action, payload } as Envelope;
  const tagged = "session" in o ? { session: session as string | undefined, ...envelope } : envelope;
  return "id" in o ? { id: id as string | undefined, ...tagged } : tagged;
}

/** Parses raw text into an envelope; throws ProtocolError(BAD_REQUEST) on anything else. */
export function parseEnvelope(raw: string): Envelope {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ProtocolError("BAD_REQUEST", "frame is not valid JSON");
  }
  const envelope = checkEnvelope(json);
  if (envelope === null) throw new ProtocolError("BAD_REQUEST", "frame is not a valid envelope");
  return envelope;
}
