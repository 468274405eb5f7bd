import type * as acp from "@agentclientprotocol/sdk";
import type { SessionUpdate } from "@kandev/protocol";
import { contentText } from "./content-text.js";
import { mapPlan, mapToolCall, mapToolCallUpdate } from "./tool-call-mapping.js";
import { mapSessionStateUpdate } from "./session-state-mapping.js";

/** Maps one ACP `session/update` payload to the agent-stream `SessionUpdate` (pure). */
export function mapSessionUpdate(update: acp.SessionUpdate): SessionUpdate {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
      return { kind: "agent_message_chunk", text: contentText(update.content) };
    case "agent_thought_chunk":
      return { kind: "agent_thought_chunk", text: contentText(update.content) };
    case "tool_call":
      return mapToolCall(update);
    case "tool_call_update":
      return mapToolCallUpdate(update);
    case "plan":
      return mapPlan(update);
    // Session state (session-state-mapping.ts); one it cannot read is kept by name below.
    case "available_commands_update":
    case "current_mode_update":
    case "config_option_update":
    case "session_info_update":
    case "usage_update":
      return mapSessionStateUpdate(update, update.sessionUpdate) ?? { kind: "other", session_update: update.sessionUpdate };
    case "user_message_chunk":
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
