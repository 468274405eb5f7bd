// What the board says about a session, in the operator's language. The backend keeps English in the
// API and puts a code beside it (docs/API.md: Session.interruption, an error message's
// metadata.failure, a status note's metadata); known codes become i18n keys here, anything else
// keeps the server's own text. Pure (the caller passes the words to resolveWords with its `t`).
import { InterruptionCodeSchema, SessionFailureSchema, type InterruptionCode, type Message } from "@kandev/protocol";

/** An i18n key and its values; a value may itself be words, said first and put in place. */
export interface NestedWords {
  key: string;
  values?: Record<string, string | number | NestedWords>;
}

/** Says `words` with `t`, nested words first. */
export function resolveWords(t: (key: string, values?: Record<string, string | number>) => string, words: NestedWords): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(words.values ?? {})) values[name] = typeof value === "object" ? resolveWords(t, value) : value;
  return t(words.key, values);
}

/** Why the session's agent is closed, for the line beside its status; null when it was not interrupted. */
export function interruptionWords(code: InterruptionCode | null): NestedWords | null {
  return code === null ? null : { key: `sessionText.interruption.${code}` };
}

/** A status note's words, or null to show the server's text. */
export function statusWords(message: Pick<Message, "metadata">): NestedWords | null {
  const m = message.metadata;
  const interruption = InterruptionCodeSchema.safeParse(m.interruption);
  if (interruption.success) return { key: `sessionText.status.${interruption.data}` };
  if (m.resume === "session_load") return { key: "sessionText.resume.sessionLoad" };
  if (m.resume === "new_session") {
    return typeof m.load_error === "string"
      ? { key: "sessionText.resume.loadRefused", values: { message: m.load_error } }
      : { key: "sessionText.resume.newSession" };
  }
  if (m.note === "start_cancelled") return { key: "sessionText.startCancelled" };
  if (typeof m.mode_id === "string") {
    const mode = typeof m.mode_name === "string" ? m.mode_name : m.mode_id;
    if (m.by === "agent") return { key: "sessionText.modeChangedByAgent", values: { mode } };
    return typeof m.user === "string"
      ? { key: "sessionText.modeChanged", values: { mode, user: m.user } }
      : { key: "sessionText.modeSet", values: { mode } };
  }
  if (m.stop_reason === "cancelled") return { key: "sessionText.turnCancelled" };
  return null;
}

/** An error message's headline (why the session failed), or null to show the server's text. */
export function failureWords(message: Pick<Message, "metadata">): NestedWords | null {
  const parsed = SessionFailureSchema.safeParse(message.metadata.failure);
  if (!parsed.success) return null;
  const { code, params } = parsed.data;
  const p = (name: string) => params[name] ?? "";
  const advice: NestedWords =
    params.hint !== undefined ? { key: "sessionText.advice.install", values: { hint: p("hint") } } : { key: "sessionText.advice.checkProfile" };
  const how: NestedWords =
    params.signal !== undefined
      ? { key: "sessionText.how.signal", values: { signal: p("signal") } }
      : { key: "sessionText.how.code", values: { code: p("exit_code") } };
  switch (code) {
    case "cwd_missing":
    case "cwd_not_directory":
      return { key: `sessionText.failure.${code}`, values: { cwd: p("cwd") } };
    case "command_not_found":
    case "command_not_executable":
      return { key: `sessionText.failure.${code}`, values: { command: p("command"), advice } };
    case "command_not_startable":
      return { key: "sessionText.failure.command_not_startable", values: { command: p("command"), detail: p("detail"), advice } };
    case "exited_during_start": {
      const phase = ["configure", "initialize", "session"].includes(p("phase")) ? p("phase") : "configure";
      const values = { how, phase: { key: `sessionText.phase.${phase}` } };
      return params.last !== undefined
        ? { key: "sessionText.failure.exited_during_start_said", values: { ...values, last: p("last") } }
        : { key: "sessionText.failure.exited_during_start", values };
    }
    case "initialize_timeout":
      return { key: "sessionText.failure.initialize_timeout", values: { seconds: p("seconds") } };
    case "start_failed":
      return { key: "sessionText.failure.start_failed", values: { detail: p("detail") } };
    case "exited":
      return { key: "sessionText.failure.exited", values: { how } };
    default: {
      const unreachable: never = code;
      return unreachable;
    }
  }
}
