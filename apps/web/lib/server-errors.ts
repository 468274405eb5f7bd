// A failed API call as the operator reads it, in their language: known codes and refusal reasons
// get a sentence of their own; anything else keeps the board's message inside a translated frame.
// Pure (the caller passes the words to `t`).
import type { Words } from "./field-errors";

export interface ApiErrorLike {
  status: number;
  code: string;
  message: string;
  details?: unknown;
}

const BY_CODE: Record<string, string> = {
  NETWORK: "errors.network",
  DATABASE_BUSY: "errors.databaseBusy",
  DATABASE_FULL: "errors.databaseFull",
  agent_stream_not_connected: "errors.notConnected",
  TIMEOUT: "errors.timeout",
  NOT_FOUND: "errors.notFound",
};

const BY_REASON: Record<string, string> = {
  turn_running: "errors.reasons.turnRunning",
  not_done: "errors.reasons.notDone",
  not_started: "errors.reasons.notStarted",
  not_movable: "errors.reasons.notMovable",
  builtin: "errors.reasons.builtin",
  in_use: "errors.reasons.inUse",
};

export function serverErrorWords(err: ApiErrorLike | Error): Words {
  if (!("code" in err) || typeof err.code !== "string") return { key: "errors.server", values: { message: err.message } };
  const details = (err as ApiErrorLike).details;
  const reason = typeof details === "object" && details !== null && "reason" in details ? (details as { reason: unknown }).reason : undefined;
  if (typeof reason === "string" && BY_REASON[reason] !== undefined) {
    const count = Array.isArray((details as { task_ids?: unknown }).task_ids) ? (details as { task_ids: unknown[] }).task_ids.length : 0;
    return { key: BY_REASON[reason]!, values: { count } };
  }
  if (err.code === "CONFLICT" && /turn is already running/.test(err.message)) return { key: "errors.reasons.turnRunning" };
  if (err.code === "CONFLICT" && /no longer live/.test(err.message)) return { key: "errors.sessionEnded" };
  const byCode = BY_CODE[err.code];
  if (byCode !== undefined) return { key: byCode };
  return { key: "errors.server", values: { message: err.message } };
}
