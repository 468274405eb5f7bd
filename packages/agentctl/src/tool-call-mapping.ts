import type * as acp from "@agentclientprotocol/sdk";
import { TOOL_CALL_CAPS, type SessionUpdate, type ToolCallContent, type ToolCallLocation } from "@kandev/protocol";
import { capText, contentText } from "./content-text.js";

type ToolCallEvent = Extract<SessionUpdate, { kind: "tool_call" }>;
type ToolCallUpdateEvent = Extract<SessionUpdate, { kind: "tool_call_update" }>;
type Details = Pick<ToolCallEvent, "content" | "locations" | "raw_input" | "raw_input_truncated" | "raw_output" | "raw_output_truncated">;

/** One ACP tool-call content item as the board keeps it (capped; see TOOL_CALL_CAPS). */
export function mapToolCallContent(item: acp.ToolCallContent): ToolCallContent {
  switch (item.type) {
    case "content": {
      const { text, cut } = capText(contentText(item.content), TOOL_CALL_CAPS.textChars);
      return cut ? { type: "text", text, truncated: true } : { type: "text", text };
    }
    case "diff": {
      const next = capText(item.newText, TOOL_CALL_CAPS.diffSideChars);
      const prev = item.oldText == null ? null : capText(item.oldText, TOOL_CALL_CAPS.diffSideChars);
      const out: ToolCallContent = { type: "diff", path: item.path, old_text: prev?.text ?? null, new_text: next.text };
      if (next.cut || prev?.cut) out.truncated = true;
      return out;
    }
    case "terminal":
      return { type: "terminal", terminal_id: item.terminalId };
    default: {
      // A content kind newer than this SDK: keep its name as text rather than lose or crash on it.
      const unknown = item as { type?: unknown };
      return { type: "text", text: `[${String(unknown.type ?? "content")}]` };
    }
  }
}

function mapLocation(loc: acp.ToolCallLocation): ToolCallLocation {
  return loc.line == null ? { path: loc.path } : { path: loc.path, line: loc.line };
}

/**
 * An agent's raw JSON, kept as sent when its JSON text fits the cap, else that text cut at the cap
 * (so the reader still sees the start) with `truncated`. Values JSON cannot write become their name.
 */
export function capRaw(value: unknown): { value: unknown; truncated: boolean } {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return { value: `[unserializable ${typeof value}]`, truncated: false };
  }
  if (json === undefined) return { value: `[${typeof value}]`, truncated: false };
  if (json.length <= TOOL_CALL_CAPS.rawChars) return { value, truncated: false };
  return { value: capText(json, TOOL_CALL_CAPS.rawChars).text, truncated: true };
}

/** The details both a tool call and its updates may carry; absent (or null) fields stay absent. */
function mapDetails(src: acp.ToolCall | acp.ToolCallUpdate): Details {
  const out: Details = {};
  if (src.content != null) out.content = src.content.map(mapToolCallContent);
  if (src.locations != null) out.locations = src.locations.map(mapLocation);
  if (src.rawInput !== undefined) {
    const raw = capRaw(src.rawInput);
    out.raw_input = raw.value;
    if (raw.truncated) out.raw_input_truncated = true;
  }
  if (src.rawOutput !== undefined) {
    const raw = capRaw(src.rawOutput);
    out.raw_output = raw.value;
    if (raw.truncated) out.raw_output_truncated = true;
  }
  return out;
}

/** ACP `tool_call` -> agent-stream `tool_call` (pure). */
export function mapToolCall(call: acp.ToolCall): ToolCallEvent {
  const out: ToolCallEvent = { kind: "tool_call", tool_call_id: call.toolCallId, title: call.title };
  if (call.status != null) out.status = call.status;
  if (call.kind != null) out.tool_kind = call.kind;
  return { ...out, ...mapDetails(call) };
}

/** ACP `tool_call_update` -> agent-stream `tool_call_update` (pure); fields it lacks stay absent. */
export function mapToolCallUpdate(update: acp.ToolCallUpdate): ToolCallUpdateEvent {
  const out: ToolCallUpdateEvent = { kind: "tool_call_update", tool_call_id: update.toolCallId };
  if (update.title != null) out.title = update.title;
  if (update.status != null) out.status = update.status;
  if (update.kind != null) out.tool_kind = update.kind;
  return { ...out, ...mapDetails(update) };
}

/** ACP `plan` -> agent-stream `plan`: the whole list, as each plan update is (ACP rule). */
export function mapPlan(plan: acp.Plan): Extract<SessionUpdate, { kind: "plan" }> {
  return {
    kind: "plan",
    entries: plan.entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status })),
  };
}
