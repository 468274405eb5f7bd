/**
 * The "add from a preset" picker's logic, purely: how a preset is shown, the form state turned into
 * a `POST /api/v1/agent-profiles/from-preset` body, and a failed request turned into what the form
 * says and where. Environment values are secrets: nothing here puts one into a message.
 */
import { CreateProfileFromPresetBodySchema, type AgentPreset, type CreateProfileFromPresetBody } from "@kandev/protocol";

/** What the operator typed. `env` is keyed by variable name and outlives a change of preset. */
export interface PresetFormState {
  presetId: string;
  id: string;
  name: string;
  cwd: string;
  env: Record<string, string>;
}

export const emptyPresetForm = (): PresetFormState => ({ presetId: "", id: "", name: "", cwd: "", env: {} });

/** A form control: the preset choice, a text field, or one environment variable (`env.NAME`). */
export type PresetField = "preset" | "id" | "name" | "cwd" | `env.${string}`;

export type PresetFormProblem = { field: "preset"; kind: "missing" } | { field: "id"; kind: "format" } | { field: `env.${string}`; kind: "control" };

/** How one preset is shown. `installHint` is left out when the reason already carries it. */
export interface PresetView {
  id: string;
  name: string;
  description: string;
  commandText: string;
  available: boolean;
  reason?: string;
  installHint?: string;
  envHints: string[];
}

/** The command as one line; an argument with spaces or quotes is quoted so the words stay apart. */
export function formatCommand(command: readonly string[]): string {
  return command.map((arg) => (arg === "" || /[\s"'\\]/.test(arg) ? JSON.stringify(arg) : arg)).join(" ");
}

export function presetView(preset: AgentPreset): PresetView {
  const view: PresetView = {
    id: preset.id,
    name: preset.name,
    description: preset.description,
    commandText: formatCommand(preset.command),
    available: preset.available,
    envHints: [...preset.env_hints],
  };
  if (preset.available) return view;
  const reason = preset.unavailable_reason?.trim();
  if (reason) view.reason = reason;
  const hint = preset.install_hint.trim();
  if (hint && !reason?.includes(hint)) view.installHint = hint;
  return view;
}

// A NUL cannot be passed in an environment at all, and a line break in an API key is a paste
// accident; neither can be seen in a password field, so it is caught here rather than at start.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point of this pattern.
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The request body, or every problem at once. Empty optional fields are left out (the board then
 * uses the preset's name and its own environment); values are trimmed, since a key pasted with a
 * trailing space would only fail later, at the agent. Only the chosen preset's variables are sent.
 */
export function presetBody(
  state: PresetFormState,
  presets: readonly AgentPreset[],
): { body: CreateProfileFromPresetBody } | { problems: PresetFormProblem[] } {
  const problems: PresetFormProblem[] = [];
  const preset = presets.find((p) => p.id === state.presetId);
  if (!preset) problems.push({ field: "preset", kind: "missing" });
  const id = state.id.trim();
  if (id && !CreateProfileFromPresetBodySchema.shape.id.safeParse(id).success) problems.push({ field: "id", kind: "format" });
  const env: Record<string, string> = {};
  for (const key of preset?.env_hints ?? []) {
    const value = (state.env[key] ?? "").trim();
    if (CONTROL.test(value)) problems.push({ field: `env.${key}`, kind: "control" });
    else if (value) env[key] = value;
  }
  if (!preset || problems.length > 0) return { problems };
  const name = state.name.trim();
  const cwd = state.cwd.trim();
  return {
    body: {
      preset_id: preset.id,
      ...(id ? { id } : {}),
      ...(name ? { name } : {}),
      ...(Object.keys(env).length > 0 ? { env } : {}),
      ...(cwd ? { cwd } : {}),
    },
  };
}

/** A failed request as the API client reports it (see ApiRequestError). */
export interface RequestFailure {
  status: number;
  code: string;
  message: string;
  fieldProblems: readonly { path: string; message: string }[];
}

export type PresetFailure =
  | { kind: "duplicate"; id: string }
  | { kind: "network" }
  | { kind: "validation"; fields: { field: PresetField; message: string }[]; other: string[] }
  | { kind: "other"; message: string };

/** Which control an API detail path (`id`, `env.ANTHROPIC_API_KEY`, `preset_id`) belongs to. */
export function fieldForPath(path: string, envKeys: readonly string[]): PresetField | undefined {
  if (path === "id" || path === "name" || path === "cwd") return path;
  if (path === "preset_id") return "preset";
  const key = path.startsWith("env.") ? path.slice(4) : undefined;
  return key !== undefined && envKeys.includes(key) ? `env.${key}` : undefined;
}

/** What went wrong with `body`, sorted to the fields it concerns. */
export function describeFailure(err: RequestFailure, body: CreateProfileFromPresetBody): PresetFailure {
  if (err.code === "NETWORK") return { kind: "network" };
  if (err.status === 409 && body.id !== undefined) return { kind: "duplicate", id: body.id };
  if (err.code === "VALIDATION_ERROR" && err.fieldProblems.length > 0) {
    const envKeys = Object.keys(body.env ?? {});
    const fields: { field: PresetField; message: string }[] = [];
    const other: string[] = [];
    for (const p of err.fieldProblems) {
      const field = fieldForPath(p.path, envKeys);
      if (field) fields.push({ field, message: p.message });
      else other.push(p.path ? `${p.path}: ${p.message}` : p.message);
    }
    return { kind: "validation", fields, other };
  }
  return { kind: "other", message: err.message };
}

/** A message under one control: a fixed one (a locale key under settings.presets) or the board's words. */
export type FieldError = { key: "presetMissing" | "idFormat" | "idTaken" | "envControl" } | { text: string };

const PROBLEM_KEYS = { missing: "presetMissing", format: "idFormat", control: "envControl" } as const;

/**
 * The message to show under each control: this submit's own problems, else what the board said
 * about the last request. A field the operator has changed since is no longer marked.
 */
export function fieldErrors(
  problems: readonly PresetFormProblem[],
  failure: PresetFailure | null,
  edited: ReadonlySet<PresetField>,
): Map<PresetField, FieldError> {
  const out = new Map<PresetField, FieldError>();
  const put = (field: PresetField, error: FieldError) => {
    if (!edited.has(field) && !out.has(field)) out.set(field, error);
  };
  for (const p of problems) put(p.field, { key: PROBLEM_KEYS[p.kind] });
  if (failure?.kind === "duplicate") put("id", { key: "idTaken" });
  if (failure?.kind === "validation") for (const f of failure.fields) put(f.field, { text: f.message });
  return out;
}
