import type * as acp from "@agentclientprotocol/sdk";
import type { SessionUpdate } from "@kandev/protocol";
import { mapSessionStateUpdate } from "./session-state-mapping.js";

/** Text of a content block as the operator should see it; non-text blocks are named, not dropped. */
function contentText(block: acp.ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return "[image]";
    case "audio":
      return "[audio]";
    case "resource_link":
      return `[${block.name}](${block.uri})`;
    case "resource":
      return "text" in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
    default: {
      const _exhaustive: never = block;
      return `[${(_exhaustive as { type?: string }).type ?? "content"}]`;
    }
  }
}

/** Maps one ACP `session/update` payload to the agent-stream `SessionUpdate` (pure). */
export function mapSessionUpdate(update: acp.SessionUpdate): SessionUpdate {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
      return { kind: "agent_message_chunk", text: contentText(update.content) };
    case "agent_thought_chunk":
      return { kind: "agent_thought_chunk", text: contentText(update.content) };
    case "tool_call": {
      const out: SessionUpdate = { kind: "tool_call", tool_call_id: update.toolCallId, title: update.title };
      if (update.status !== undefined) out.status = update.status;
      if (update.kind !== undefined) out.tool_kind = update.kind;
      return out;
    }
    case "tool_call_update": {
      const out: SessionUpdate = { kind: "tool_call_update", tool_call_id: update.toolCallId };
      if (update.title != null) out.title = update.title;
      if (update.status != null) out.status = update.status;
      return out;
    }
    // Session state (session-state-mapping.ts); one it cannot read is kept by name below.
    case "available_commands_update":
    case "current_mode_update":
    case "config_option_update":
    case "session_info_update":
    case "usage_update":
      return mapSessionStateUpdate(update, update.sessionUpdate) ?? { kind: "other", session_update: update.sessionUpdate };
    case "user_message_chunk":
    case "plan":
    case "notice":
    case "compaction_update":
    case "compaction_summary_chunk":
      return { kind: "other", session_update: update.sessionUpdate };
    default: {
      // A newer agent may send kinds this SDK does not know; keep the name so nothing is lost.
      const _exhaustive: never = update;
      return { kind: "other", session_update: String((_exhaustive as { sessionUpdate?: unknown }).sessionUpdate) };
    }
  }
}
