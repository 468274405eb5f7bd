// What the agent said about its session (modes, config options, commands, usage, title), as stored
// on the session's row, and the pure rules that change it: an update from the agent, what
// session/new or session/load returned, the operator's choice. No I/O (lifecycle/session-settings.ts).
import { isDeepStrictEqual } from "node:util";
import type { AvailableCommand, ConfigValue, SessionConfigOption, SessionModes, SessionStateUpdate, SessionUsage } from "@kandev/protocol";

export interface StoredSessionState {
  modes: SessionModes | null;
  configOptions: SessionConfigOption[] | null;
  availableCommands: AvailableCommand[];
  usage: SessionUsage | null;
  title: string | null;
}

export type StatePatch = Partial<StoredSessionState>;

export interface StateChange {
  /** Only what differs from the stored state (empty: nothing to write). */
  patch: StatePatch;
  /** Set when the current mode changed. */
  modeChanged?: { from: string | null; to: string };
}

const same = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);

function only<K extends keyof StoredSessionState>(state: StoredSessionState, key: K, value: StoredSessionState[K]): StatePatch {
  return same(state[key], value) ? {} : ({ [key]: value } as StatePatch);
}

/** The modes with `modeId` as the current one (a mode the agent never listed is still recorded). */
export function withCurrentMode(modes: SessionModes | null, modeId: string): SessionModes {
  return { current_mode_id: modeId, available_modes: modes?.available_modes ?? [] };
}

/** What one agent update changes. */
export function applyStateUpdate(state: StoredSessionState, update: SessionStateUpdate): StateChange {
  switch (update.kind) {
    case "current_mode_update": {
      const from = state.modes?.current_mode_id ?? null;
      if (from === update.current_mode_id) return { patch: {} };
      return { patch: { modes: withCurrentMode(state.modes, update.current_mode_id) }, modeChanged: { from, to: update.current_mode_id } };
    }
    case "config_option_update":
      return { patch: only(state, "configOptions", update.config_options) };
    case "available_commands_update":
      return { patch: only(state, "availableCommands", update.available_commands) };
    case "usage_update":
      return { patch: only(state, "usage", update.usage) };
    case "session_info_update":
      return { patch: update.title === undefined ? {} : only(state, "title", update.title) };
    default: {
      const _exhaustive: never = update;
      return { patch: {} };
    }
  }
}

/**
 * What session/new or session/load said. A new ACP session replaces modes and options (an older
 * session's are not this one's, so what it did not say is cleared); a load keeps what it did not say.
 */
export function applyOpened(
  state: StoredSessionState,
  opened: { modes?: SessionModes | null | undefined; config_options?: SessionConfigOption[] | null | undefined },
  how: "new" | "load",
): StatePatch {
  const modes = opened.modes !== undefined ? opened.modes : how === "new" ? null : state.modes;
  const configOptions = opened.config_options !== undefined ? opened.config_options : how === "new" ? null : state.configOptions;
  return { ...only(state, "modes", modes), ...only(state, "configOptions", configOptions) };
}

/** Why `modeId` cannot be chosen, or null. */
export function modeProblem(modes: SessionModes | null, modeId: string): string | null {
  if (modes === null || modes.available_modes.length === 0) return "the agent offers no modes";
  return modes.available_modes.some((m) => m.id === modeId) ? null : `the agent offers no mode ${modeId}`;
}

/** A mode's name, or its id when the agent gave none. */
export function modeName(modes: SessionModes | null, modeId: string): string {
  return modes?.available_modes.find((m) => m.id === modeId)?.name ?? modeId;
}

/** Why `value` cannot be set on option `configId` (with the field at fault), or null. */
export function configProblem(
  options: SessionConfigOption[] | null,
  configId: string,
  value: ConfigValue,
): { path: "config_id" | "value"; message: string } | null {
  const option = options?.find((o) => o.id === configId);
  if (option === undefined) return { path: "config_id", message: `the agent offers no config option ${configId}` };
  if (option.type === "boolean") return typeof value === "boolean" ? null : { path: "value", message: `${configId} takes true or false` };
  if (option.type === "select") {
    return typeof value === "string" && (option.options ?? []).some((o) => o.value === value)
      ? null
      : { path: "value", message: `${configId} has no choice ${String(value)}` };
  }
  return { path: "config_id", message: `${configId} is a ${option.type} option, which the board cannot set` };
}
