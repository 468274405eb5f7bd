import {
  PlanMetadataSchema,
  ToolCallMetadataSchema,
  type Message,
  type PlanEntry,
  type ToolCallContent,
  type ToolCallLocation,
} from "@kandev/protocol";

// Readers for a tool_call or plan message's metadata (its shape: protocol tool-calls.ts). What does
// not parse degrades to "no details", never to a crash: older rows carry only title and status.

export interface ToolCallDetails {
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput: { text: string; truncated: boolean } | null;
  rawOutput: { text: string; truncated: boolean } | null;
  kind: ToolKindIcon;
}

/** The tool kinds with an icon of their own (ACP ToolKind); anything else shows "other". */
export const TOOL_KIND_ICONS = ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"] as const;
export type ToolKindIcon = (typeof TOOL_KIND_ICONS)[number];

export function toolKindIcon(kind: unknown): ToolKindIcon {
  return (TOOL_KIND_ICONS as readonly unknown[]).includes(kind) ? (kind as ToolKindIcon) : "other";
}

/** A raw value as text: strings as they are (a cut one is its JSON text), anything else pretty JSON. */
export function rawText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

export function toolCallDetails(message: Message): ToolCallDetails {
  const parsed = ToolCallMetadataSchema.safeParse(message.metadata);
  const kind = toolKindIcon(message.metadata.tool_kind);
  if (!parsed.success) return { content: [], locations: [], rawInput: null, rawOutput: null, kind };
  const m = parsed.data;
  return {
    content: m.content ?? [],
    locations: m.locations ?? [],
    rawInput: m.raw_input === undefined ? null : { text: rawText(m.raw_input), truncated: m.raw_input_truncated === true },
    rawOutput: m.raw_output === undefined ? null : { text: rawText(m.raw_output), truncated: m.raw_output_truncated === true },
    kind,
  };
}

/**
 * A path inside the task's worktree as the Changes view names it (relative, `/`-separated); null
 * when there is no worktree or the path is outside it. Agents send absolute paths (ACP asks them to).
 */
export function workspaceRelative(filePath: string, root: string | null): string | null {
  if (root === null || root.length === 0) return null;
  const base = root.endsWith("/") ? root : `${root}/`;
  if (!filePath.startsWith(base)) return null;
  const rel = filePath.slice(base.length);
  return rel.length > 0 ? rel : null;
}

/** `path:line` (or just `path`), the path shortened to the worktree when inside it. */
export function locationLabel(loc: ToolCallLocation, root: string | null): string {
  const shown = workspaceRelative(loc.path, root) ?? loc.path;
  return loc.line === undefined ? shown : `${shown}:${loc.line}`;
}

/** Text output this long (lines or characters) starts folded. */
export const FOLD_LINES = 12;
export const FOLD_CHARS = 1500;

export function isLong(text: string): boolean {
  if (text.length > FOLD_CHARS) return true;
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10 && ++lines > FOLD_LINES) return true;
  return false;
}

/** A plan message's entries; null for anything that is not a readable plan. */
export function planEntries(message: Message): PlanEntry[] | null {
  if (message.type !== "plan") return null;
  const parsed = PlanMetadataSchema.safeParse(message.metadata);
  return parsed.success ? parsed.data.entries : null;
}

/** The plan to pin: the newest plan message of the transcript loaded so far, or null. */
export function currentPlan(messages: readonly Message[]): { message: Message; entries: PlanEntry[] } | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const entries = planEntries(messages[i]!);
    if (entries !== null) return { message: messages[i]!, entries };
  }
  return null;
}

/**
 * The plan to pin: the newest plan of the loaded transcript pages, else the session's newest plan as
 * the board answered it (`GET /sessions/:id/plan`, kept current by live plan updates), for a plan
 * older than the pages loaded so far (a long turn).
 */
export function pinnedPlan(loaded: readonly Message[], fetched: Message | null | undefined): { message: Message; entries: PlanEntry[] } | null {
  const fromPages = currentPlan(loaded);
  if (fromPages !== null) return fromPages;
  if (!fetched) return null;
  const entries = planEntries(fetched);
  return entries === null ? null : { message: fetched, entries };
}

/** Plan entry status as the checklist shows it; unknown statuses read as pending. */
export function planStatus(status: string): "pending" | "in_progress" | "completed" {
  return status === "completed" || status === "in_progress" ? status : "pending";
}
