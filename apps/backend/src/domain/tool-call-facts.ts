import type { PlanEntry, SessionUpdate } from "@kandev/protocol";

/** A tool call's first event or a later update, as agentctl forwards it. */
export type ToolCallEvent = Extract<SessionUpdate, { kind: "tool_call" | "tool_call_update" }>;

type Metadata = Record<string, unknown>;

/**
 * Folds one tool-call event into what a `tool_call` message's metadata knows (pure). ACP's rule:
 * a field the event carries replaces the earlier value (`content` and `locations` as whole lists),
 * a field it lacks keeps it. A raw value's `*_truncated` flag travels with that value, so a later
 * whole value clears an earlier cut's flag.
 */
export function mergeToolCall(current: Metadata, event: ToolCallEvent): Metadata {
  const next: Metadata = { ...current };
  if (event.title !== undefined) next.title = event.title;
  if (event.status !== undefined) next.status = event.status;
  if (event.tool_kind !== undefined) next.tool_kind = event.tool_kind;
  if (event.content !== undefined) next.content = event.content;
  if (event.locations !== undefined) next.locations = event.locations;
  if (event.raw_input !== undefined) {
    next.raw_input = event.raw_input;
    if (event.raw_input_truncated === true) next.raw_input_truncated = true;
    else delete next.raw_input_truncated;
  }
  if (event.raw_output !== undefined) {
    next.raw_output = event.raw_output;
    if (event.raw_output_truncated === true) next.raw_output_truncated = true;
    else delete next.raw_output_truncated;
  }
  return next;
}

/**
 * The metadata of a new `tool_call` message. An update may arrive before (or without) its
 * `tool_call`: the call is then titled by its id and counts as pending until a status comes.
 */
export function initialToolCall(event: ToolCallEvent): Metadata {
  return mergeToolCall({ tool_call_id: event.tool_call_id, title: event.title ?? event.tool_call_id, status: "pending" }, event);
}

/** The message text of a tool call: its title (what lists and notifications show). */
export function toolCallTitle(metadata: Metadata): string {
  return typeof metadata.title === "string" ? metadata.title : String(metadata.tool_call_id ?? "");
}

/**
 * A plan as plain text, one `[x]`/`[~]`/`[ ]` line per entry: the `content` of a `plan` message,
 * for readers that do not render `metadata.entries` (exports, agents reading the transcript).
 */
export function planText(entries: readonly PlanEntry[]): string {
  const mark = (status: string) => (status === "completed" ? "[x]" : status === "in_progress" ? "[~]" : "[ ]");
  return entries.map((e) => `${mark(e.status)} ${e.content}`).join("\n");
}
