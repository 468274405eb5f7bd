// ACP session state (modes, config options, slash commands, usage, title) -> the agent stream's
// snake_case shapes (@kandev/protocol session-state.ts). Pure. The SDK does not validate what an
// agent sends in a response, and a newer agent may send shapes this SDK does not know, so every
// field is checked here: what cannot be read is left out rather than sent malformed.
import type * as acp from "@agentclientprotocol/sdk";
import type { AvailableCommand, SessionConfigOption, SessionModes, SessionStateUpdate, SessionUsage } from "@kandev/protocol";

/** Bounds on what one agent may make the board store and push (a command list, a select's options). */
export const MAX_STATE_ITEMS = 500;
export const MAX_STATE_TEXT = 2000;

type Loose = Record<string, unknown>;

const isObject = (v: unknown): v is Loose => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" ? v.slice(0, MAX_STATE_TEXT) : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v.slice(0, MAX_STATE_ITEMS) : []);

function withDescription<T extends object>(out: T, description: unknown): T & { description?: string } {
  const d = text(description);
  return d !== undefined && d.length > 0 ? { ...out, description: d } : out;
}

/** ACP `SessionModeState` -> `SessionModes`; null when absent or unreadable. */
export function mapModes(modes: acp.SessionModeState | null | undefined): SessionModes | null {
  const m: unknown = modes;
  if (!isObject(m)) return null;
  const current = text(m.currentModeId);
  if (current === undefined) return null;
  const available = list(m.availableModes).flatMap((mode) => {
    if (!isObject(mode)) return [];
    const id = text(mode.id);
    if (id === undefined) return [];
    return [withDescription({ id, name: text(mode.name) ?? id }, mode.description)];
  });
  return { current_mode_id: current, available_modes: available };
}

function selectOptions(options: unknown): Array<{ value: string; name: string; description?: string }> {
  // ACP's select options are either a flat list or groups of options: groups are flattened in order.
  return list(options)
    .flatMap((o) => (isObject(o) && Array.isArray(o.options) && o.value === undefined ? o.options : [o]))
    .slice(0, MAX_STATE_ITEMS)
    .flatMap((o) => {
      if (!isObject(o)) return [];
      const value = text(o.value);
      if (value === undefined) return [];
      return [withDescription({ value, name: text(o.name) ?? value }, o.description)];
    });
}

/** One ACP `SessionConfigOption`; null when it cannot be read. */
export function mapConfigOption(option: unknown): SessionConfigOption | null {
  if (!isObject(option)) return null;
  const id = text(option.id);
  const type = text(option.type);
  const current = option.currentValue;
  if (id === undefined || type === undefined || (typeof current !== "string" && typeof current !== "boolean")) return null;
  let out: SessionConfigOption = withDescription({ id, name: text(option.name) ?? id, type, current_value: current }, option.description);
  const category = text(option.category);
  if (category !== undefined) out = { ...out, category };
  if (type === "select") out = { ...out, options: selectOptions(option.options) };
  return out;
}

/** ACP `configOptions` -> `SessionConfigOption[]`; null when absent. */
export function mapConfigOptions(options: readonly acp.SessionConfigOption[] | null | undefined): SessionConfigOption[] | null {
  if (!Array.isArray(options)) return null;
  return list(options).flatMap((o) => {
    const mapped = mapConfigOption(o);
    return mapped === null ? [] : [mapped];
  });
}

function mapCommands(commands: unknown): AvailableCommand[] {
  return list(commands).flatMap((c) => {
    if (!isObject(c)) return [];
    const name = text(c.name);
    if (name === undefined || name.length === 0) return [];
    const hint = isObject(c.input) ? text(c.input.hint) : undefined;
    const out: AvailableCommand = { name, description: text(c.description) ?? "" };
    return [hint !== undefined && hint.length > 0 ? { ...out, input_hint: hint } : out];
  });
}

function mapUsage(update: Loose): SessionUsage | null {
  const { used, size, cost } = update;
  if (typeof used !== "number" || typeof size !== "number" || !Number.isFinite(used) || !Number.isFinite(size) || used < 0 || size < 0) return null;
  const out: SessionUsage = { used, size };
  if (isObject(cost) && typeof cost.amount === "number" && Number.isFinite(cost.amount) && typeof cost.currency === "string") {
    out.cost = { amount: cost.amount, currency: cost.currency.slice(0, 16) };
  }
  return out;
}

export type SessionStateKind = SessionStateUpdate["kind"];

/**
 * One of the five ACP state updates -> its agent-stream `SessionUpdate`; null when the update is
 * unreadable (update-mapping.ts then keeps it by name as `other`).
 */
export function mapSessionStateUpdate(
  update: acp.CurrentModeUpdate | acp.ConfigOptionUpdate | acp.AvailableCommandsUpdate | acp.UsageUpdate | acp.SessionInfoUpdate,
  kind: SessionStateKind,
): SessionStateUpdate | null {
  const u = update as unknown as Loose;
  switch (kind) {
    case "current_mode_update": {
      const id = text(u.currentModeId);
      return id === undefined ? null : { kind, current_mode_id: id };
    }
    case "config_option_update": {
      const options = mapConfigOptions(u.configOptions as acp.SessionConfigOption[]);
      return options === null ? null : { kind, config_options: options };
    }
    case "available_commands_update":
      return Array.isArray(u.availableCommands) ? { kind, available_commands: mapCommands(u.availableCommands) } : null;
    case "usage_update": {
      const usage = mapUsage(u);
      return usage === null ? null : { kind, usage };
    }
    case "session_info_update": {
      // Absent: no change; null: cleared (ACP). Only the title is kept; updatedAt is the agent's own.
      if (!("title" in u)) return { kind };
      const title = u.title === null ? null : text(u.title);
      return title === undefined ? null : { kind, title };
    }
    default: {
      const _exhaustive: never = kind;
      return null;
    }
  }
}
