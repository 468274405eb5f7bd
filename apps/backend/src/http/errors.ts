import { ProtocolError, type ErrorCode } from "@kandev/protocol";
import { z } from "zod";
import { isDatabaseBusy, sqliteCode } from "../db/errors.js";

/** An error that already knows its HTTP status and public code (HTTP-only codes live here). */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  /** Extra response headers (e.g. a 429's `Retry-After`). */
  readonly headers: Record<string, string> | undefined;
  constructor(status: number, code: string, message: string, details?: unknown, headers?: Record<string, string>) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

export interface ErrorReply {
  status: number;
  body: { error: { code: string; message: string; details?: unknown } };
  headers?: Record<string, string>;
}

/** Status for each code that crosses from agentctl or the domain; codes pass through unchanged. */
const STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  // agentctl refusing the backend's own request is the backend's failure, not the caller's.
  UNAUTHORIZED: 502,
  UNKNOWN_ACTION: 502,
  INTERNAL_ERROR: 500,
  NOT_CONNECTED: 503,
  TIMEOUT: 504,
  LIMIT_EXCEEDED: 429,
  // The agent refused a request made of it (ACP session/set_mode, ...): its message is passed on.
  AGENT_ERROR: 502,
};

/** The one place any thrown value becomes an HTTP error reply (docs/API.md "Conventions"). */
export function toErrorReply(err: unknown): ErrorReply {
  if (err instanceof HttpError) {
    const r = reply(err.status, err.code, err.message, err.details);
    return err.headers === undefined ? r : { ...r, headers: err.headers };
  }
  if (err instanceof ProtocolError) {
    // The public name for "agentctl unreachable" is fixed by DECISIONS §3.
    if (err.code === "NOT_CONNECTED") return reply(503, "agent_stream_not_connected", err.message, err.details);
    return reply(STATUS_BY_CODE[err.code], err.code, err.message, err.details);
  }
  if (err instanceof z.ZodError) {
    return reply(400, "VALIDATION_ERROR", "request failed validation", zodDetails(err));
  }
  const database = databaseErrorReply(err);
  if (database !== null) return database;
  return reply(500, "INTERNAL_ERROR", err instanceof Error ? err.message : String(err), undefined);
}

/**
 * SQLite failures are the machine's condition, not a bug in the request: say which one, so the
 * operator knows to close the other program holding the file or to free disk space.
 */
export function databaseErrorReply(err: unknown): ErrorReply | null {
  const code = sqliteCode(err);
  if (code === null || !(err instanceof Error)) return null;
  const detail = { sqlite_code: code };
  if (isDatabaseBusy(code)) {
    return reply(503, "DATABASE_BUSY", `the database is locked by another connection (${err.message}); try again`, detail);
  }
  if (code === "SQLITE_FULL") {
    return reply(507, "DATABASE_FULL", `the disk holding the database is full (${err.message}); free some space and try again`, detail);
  }
  return reply(500, "DATABASE_ERROR", `the database failed: ${err.message}`, detail);
}

/**
 * One `{path, message, code}` per problem. `code` is zod's issue code (`too_small`, `too_big`,
 * `invalid_type`, `custom` for a blank prompt...), so a client can say it in its own words and
 * language instead of showing the message.
 */
export function zodDetails(err: z.ZodError): Array<{ path: string; message: string; code: string }> {
  return err.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message, code: i.code }));
}

function reply(status: number, code: string, message: string, details: unknown): ErrorReply {
  return { status, body: { error: details === undefined ? { code, message } : { code, message, details } } };
}

export const notFound = (what: string): HttpError => new HttpError(404, "NOT_FOUND", `${what} not found`);
export const conflict = (message: string): HttpError => new HttpError(409, "CONFLICT", message);
export const validationError = (message: string, details: Array<{ path: string; message: string; code?: string }>): HttpError =>
  new HttpError(400, "VALIDATION_ERROR", message, details);
