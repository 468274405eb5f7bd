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
 * `id` pairs a request with its response or error; notifications carry none.
 */
export const EnvelopeSchema = z.object({
  id: z.string().min(1).max(128).optional(),
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
  return id === undefined
    ? { type: "error", action, payload: error }
    : { id, type: "error", action, payload: error };
}
export function notificationFrame(action: string, payload: unknown): Envelope {
  return { type: "notification", action, payload };
}

/** Parses raw text into an envelope; throws ProtocolError(BAD_REQUEST) on anything else. */
export function parseEnvelope(raw: string): Envelope {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ProtocolError("BAD_REQUEST", "frame is not valid JSON");
  }
  const parsed = EnvelopeSchema.safeParse(json);
  if (!parsed.success) throw new ProtocolError("BAD_REQUEST", "frame is not a valid envelope");
  return parsed.data;
}
