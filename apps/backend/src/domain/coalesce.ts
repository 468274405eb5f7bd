import type { PlanEntry, SessionUpdate } from "@kandev/protocol";
import type { ToolCallEvent } from "./tool-call-facts.js";

/**
 * Where the transcript of one turn stands: the agent text or thought message still being appended
 * to (if any), the message of each tool call seen so far and the turn's plan message. Owned by one
 * live session.
 */
export interface StreamCursor {
  turnId: string | null;
  open: { type: "text" | "thought"; messageId: string } | null;
  toolMessages: ReadonlyMap<string, string>;
  planMessageId: string | null;
}

export const emptyCursor = (turnId: string | null): StreamCursor => ({ turnId, open: null, toolMessages: new Map(), planMessageId: null });

/** What to do with one session update. Message ids for new messages are chosen by the caller. */
export type CoalesceDecision =
  | { kind: "create"; type: "text" | "thought"; text: string }
  | { kind: "append"; messageId: string; text: string }
  | { kind: "create_tool"; toolCallId: string; event: ToolCallEvent }
  | { kind: "update_tool"; messageId: string; event: ToolCallEvent }
  | { kind: "create_plan"; entries: PlanEntry[] }
  | { kind: "update_plan"; messageId: string; entries: PlanEntry[] }
  | { kind: "ignore"; reason: string };

/**
 * Decides how a session update lands in the transcript: consecutive chunks of the same kind in one
 * turn grow one message, anything else in between (a tool call, another kind of chunk, a new turn)
 * closes it, every tool call keeps one message updated in place, and so does the turn's plan (each
 * plan update is the whole plan, so the message holds the latest). Pure; see coalesce.test.ts.
 */
export function decideUpdate(cursor: StreamCursor, turnId: string | null, update: SessionUpdate): CoalesceDecision {
  const sameTurn = cursor.turnId === turnId;
  switch (update.kind) {
    case "agent_message_chunk":
    case "agent_thought_chunk": {
      const type = update.kind === "agent_message_chunk" ? "text" : "thought";
      if (update.text.length === 0) return { kind: "ignore", reason: "empty chunk" };
      if (sameTurn && cursor.open?.type === type) return { kind: "append", messageId: cursor.open.messageId, text: update.text };
      return { kind: "create", type, text: update.text };
    }
    case "tool_call":
    case "tool_call_update": {
      const known = sameTurn ? cursor.toolMessages.get(update.tool_call_id) : undefined;
      if (known !== undefined) return { kind: "update_tool", messageId: known, event: update };
      return { kind: "create_tool", toolCallId: update.tool_call_id, event: update };
    }
    case "plan": {
      const known = sameTurn ? cursor.planMessageId : null;
      if (known !== null) return { kind: "update_plan", messageId: known, entries: update.entries };
      return { kind: "create_plan", entries: update.entries };
    }
    case "other":
      return { kind: "ignore", reason: `session update ${update.session_update} has no transcript form` };
    case "current_mode_update":
    case "config_option_update":
    case "available_commands_update":
    case "usage_update":
    case "session_info_update":
      // Session state, kept on the session (lifecycle/session-settings.ts), not in the transcript.
      return { kind: "ignore", reason: `${update.kind} is session state` };
    default: {
      const _x: never = update;
      return _x;
    }
  }
}

/** The cursor after applying `decision`; `createdId` is the id given to a created message. */
export function advanceCursor(cursor: StreamCursor, turnId: string | null, decision: CoalesceDecision, createdId?: string): StreamCursor {
  const base = cursor.turnId === turnId ? cursor : emptyCursor(turnId);
  switch (decision.kind) {
    case "create":
      return { ...base, open: { type: decision.type, messageId: requireId(createdId) } };
    case "append":
      return base;
    case "create_tool": {
      const toolMessages = new Map(base.toolMessages);
      toolMessages.set(decision.toolCallId, requireId(createdId));
      return { ...base, open: null, toolMessages };
    }
    case "update_tool":
      return { ...base, open: null };
    case "create_plan":
      return { ...base, open: null, planMessageId: requireId(createdId) };
    case "update_plan":
      // The plan changes in place, above the text being written: that text stays open.
      return base;
    case "ignore":
      return base;
    default: {
      const _x: never = decision;
      return _x;
    }
  }
}

/** Something other than an update entered the transcript (a permission request, a status line). */
export function closeOpen(cursor: StreamCursor): StreamCursor {
  return cursor.open === null ? cursor : { ...cursor, open: null };
}

function requireId(id: string | undefined): string {
  if (id === undefined) throw new Error("a created message needs its id");
  return id;
}
