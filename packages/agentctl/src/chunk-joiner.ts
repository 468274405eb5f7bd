import type { AgentEvent } from "@kandev/protocol";

type UpdateEvent = AgentEvent<"session.update">;

/** The most text one joined `session.update` carries; a longer run is sent in pieces of this size. */
export const MAX_JOINED_CHARS = 64 * 1024;

/**
 * Joins consecutive text (or thought) chunks of one session and turn into one `session.update`.
 * An agent streaming a reply sends a chunk of a few characters per ACP notification, and a pipe
 * read holds hundreds of them: each sent on as its own event cost agentctl a schema check, a JSON
 * encoding and a pipe write per chunk, and the board a parse and a transaction per chunk, so ten
 * agents streaming at once left the board seconds behind them (issue 35). A joined chunk waits
 * only until the work already queued is done (`schedule`, setImmediate by default) or until any
 * other event must go out (`flush` first, so the order of events never changes).
 */
export class ChunkJoiner {
  private pending: UpdateEvent | null = null;
  private scheduled = false;

  constructor(
    private readonly send: (event: UpdateEvent) => void,
    private readonly schedule: (run: () => void) => void = (run) => setImmediate(run),
  ) {}

  /** Takes one `session.update`: a text chunk that continues the pending one joins it; anything else goes out after it. */
  add(event: UpdateEvent): void {
    const pending = this.pending;
    if (pending !== null && joins(pending, event) && textOf(pending).length + textOf(event).length <= MAX_JOINED_CHARS) {
      this.pending = withText(pending, textOf(pending) + textOf(event));
      return;
    }
    this.flush();
    if (isTextChunk(event)) {
      this.pending = event;
      if (!this.scheduled) {
        this.scheduled = true;
        this.schedule(() => {
          this.scheduled = false;
          this.flush();
        });
      }
      return;
    }
    this.send(event);
  }

  /** Sends the pending joined chunk, if any. Call before sending any other event. */
  flush(): void {
    const pending = this.pending;
    if (pending === null) return;
    this.pending = null;
    this.send(pending);
  }
}

function isTextChunk(event: UpdateEvent): boolean {
  return event.update.kind === "agent_message_chunk" || event.update.kind === "agent_thought_chunk";
}

function joins(a: UpdateEvent, b: UpdateEvent): boolean {
  return isTextChunk(b) && a.update.kind === b.update.kind && a.session_id === b.session_id && a.turn_id === b.turn_id;
}

function textOf(event: UpdateEvent): string {
  return "text" in event.update ? event.update.text : "";
}

function withText(event: UpdateEvent, text: string): UpdateEvent {
  return { ...event, update: { ...event.update, text } as UpdateEvent["update"] };
}
