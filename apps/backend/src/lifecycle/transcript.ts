import type { SessionUpdate } from "@kandev/protocol";
import { advanceCursor, closeOpen, decideUpdate, emptyCursor, type StreamCursor } from "../domain/coalesce.js";
import { getMessage } from "../repos/messages.js";
import { newId } from "../repos/util.js";
import type { LiveStore } from "./store.js";

/**
 * Turns one session's stream of agent updates into transcript messages, following the pure
 * coalescing rules in domain/coalesce.ts: the first chunk adds a message, later chunks update it.
 */
export class Transcript {
  private cursor: StreamCursor;

  constructor(
    private readonly store: LiveStore,
    private readonly ids: { sessionId: string; taskId: string },
    turnId: string | null,
  ) {
    this.cursor = emptyCursor(turnId);
  }

  beginTurn(turnId: string): void {
    this.cursor = emptyCursor(turnId);
  }

  /** Where the transcript stands, to put back if the writes made since are rolled back. */
  snapshot(): StreamCursor {
    return this.cursor;
  }

  restore(cursor: StreamCursor): void {
    this.cursor = cursor;
  }

  /** Something else entered the transcript; the next chunk starts a new message. */
  interrupt(): void {
    this.cursor = closeOpen(this.cursor);
  }

  apply(turnId: string | null, update: SessionUpdate): void {
    const decision = decideUpdate(this.cursor, turnId, update);
    let createdId: string | undefined;
    switch (decision.kind) {
      case "create":
        createdId = newId();
        this.store.addMessage({
          id: createdId,
          ...this.ids,
          turnId,
          authorType: "agent",
          type: decision.type,
          content: decision.text,
        });
        break;
      case "append":
        this.store.appendToMessage(decision.messageId, decision.text);
        break;
      case "create_tool":
        createdId = newId();
        this.store.addMessage({
          id: createdId,
          ...this.ids,
          turnId,
          authorType: "agent",
          type: "tool_call",
          content: decision.title,
          metadata: {
            tool_call_id: decision.toolCallId,
            title: decision.title,
            status: decision.status ?? "pending",
            ...(decision.toolKind !== null && { tool_kind: decision.toolKind }),
          },
        });
        break;
      case "update_tool": {
        const current = getMessage(this.store.db, decision.messageId)?.metadata ?? {};
        this.store.patchMessage(decision.messageId, {
          ...(decision.title !== null && { content: decision.title }),
          metadata: {
            ...current,
            ...(decision.title !== null && { title: decision.title }),
            ...(decision.status !== null && { status: decision.status }),
          },
        });
        break;
      }
      case "ignore":
        break;
      default: {
        const _x: never = decision;
        return;
      }
    }
    this.cursor = advanceCursor(this.cursor, turnId, decision, createdId);
  }
}
