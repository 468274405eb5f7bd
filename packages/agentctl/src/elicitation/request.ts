/**
 * Validation of a raw `elicitation/create` params object, before any mapping.
 *
 * agentctl registers the ACP handler with an identity params parser, so this module sees exactly
 * what the agent sent (including bodies the SDK's own schema would reject with -32602) and can
 * decline them as the spec asks. Only the form mode with a session scope is accepted.
 */
import { LIMITS } from "@kandev/protocol";

/** Why a request was declined without reaching the operator. */
export type DeclineReason =
  | "flag_off"
  | "not_an_object"
  | "url_mode"
  | "unsupported_mode"
  | "request_scope"
  | "ambiguous_scope"
  | "missing_session"
  | "unknown_session"
  | "too_many_pending"
  | "malformed"
  | "too_many_properties"
  | "too_many_options"
  | "no_questions";

/** The parts of a form, session-scoped request that mapping needs. */
export interface FormRequest {
  sessionId: string;
  /** Present for AskUserQuestion; absent for MCP passthrough and the refusal dialog. */
  toolCallId: string | null;
  message: string;
  /** `requestedSchema.properties` in the order JSON gave them (order is not relied upon, D1). */
  properties: ReadonlyMap<string, unknown>;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: DeclineReason; detail: string };

export function decline(reason: DeclineReason, detail: string): { ok: false; reason: DeclineReason; detail: string } {
  return { ok: false, reason, detail };
}

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own enumerable entries of a parsed JSON object, safe for keys such as `__proto__`. */
export function ownEntries(obj: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const key of Object.keys(obj)) out.set(key, Object.getOwnPropertyDescriptor(obj, key)?.value);
  return out;
}

/** A short, safe description of an untrusted value for a decline detail. */
function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value.slice(0, 64)) : typeof value;
}

function field(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * Checks mode and scope and extracts the form. Fails closed: every shape it does not positively
 * recognise is a decline, never an exception.
 */
export function parseCreateRequest(raw: unknown): Parsed<FormRequest> {
  if (!isRecord(raw)) return decline("not_an_object", "params is not a JSON object");
  const mode = field(raw, "mode");
  if (mode === "url") return decline("url_mode", "url mode is not supported (only form is advertised)");
  if (mode !== "form") return decline("unsupported_mode", `mode ${describe(mode)} is not "form"`);

  const sessionId = field(raw, "sessionId");
  const requestId = field(raw, "requestId");
  const hasRequestId = requestId !== undefined && requestId !== null;
  const hasSessionId = sessionId !== undefined && sessionId !== null;
  if (hasRequestId && hasSessionId) return decline("ambiguous_scope", "both sessionId and requestId are present");
  if (hasRequestId) return decline("request_scope", "request-scoped elicitations are not supported");
  if (typeof sessionId !== "string" || sessionId.length === 0) {
    return decline("missing_session", "sessionId is missing or not a non-empty string");
  }

  const toolCallId = field(raw, "toolCallId");
  if (toolCallId !== undefined && toolCallId !== null && typeof toolCallId !== "string") {
    return decline("malformed", "toolCallId is not a string");
  }
  // Ids travel verbatim (never clipped), so an id too long for the event schema cannot be shown.
  if (typeof toolCallId === "string" && toolCallId.length > LIMITS.maxIdChars) {
    return decline("malformed", `toolCallId is longer than ${LIMITS.maxIdChars} characters`);
  }
  const message = field(raw, "message");
  if (typeof message !== "string") return decline("malformed", "message is not a string");

  const schema = field(raw, "requestedSchema");
  if (!isRecord(schema)) return decline("malformed", "requestedSchema is not an object");
  const type = field(schema, "type");
  if (type !== undefined && type !== "object") return decline("malformed", 'requestedSchema.type is not "object"');
  const properties = field(schema, "properties");
  if (properties !== undefined && properties !== null && !isRecord(properties)) {
    return decline("malformed", "requestedSchema.properties is not an object");
  }

  return {
    ok: true,
    value: {
      sessionId,
      toolCallId: typeof toolCallId === "string" && toolCallId.length > 0 ? toolCallId : null,
      message,
      properties: isRecord(properties) ? ownEntries(properties) : new Map(),
    },
  };
}
