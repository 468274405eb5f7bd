import type { SessionUpdate } from "@kandev/protocol";
import { advanceCursor, closeOpen, decideUpdate, emptyCursor, type StreamCursor } from "../domain/coalesce.js";
import { initialToolCall, mergeToolCall, planText, toolCallTitle } from "../domain/tool-call-facts.js";
import { appendText, batchDue, nextCheckMs, written, type StreamedText } from "../domain/stream-writes.js";
import { getMessage } from "../repos/messages.js";
import { newId } from "../repos/util.js";
import type { LiveStore } from "./store.js";

export interface TranscriptClock {
  now: () => number;
  /** Arms a timer; returns its cancel. */
  schedule: (run: () => void, ms: number) => { cancel: () => void };
}

const realClock: TranscriptClock = {
  now: () => performance.now(),
  schedule: (run, ms) => {
    const timer = setTimeout(run, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

/** Where the transcript stands: put back when the writes made since are rolled back. */
export interface TranscriptState {
  cursor: StreamCursor;
  stream: StreamedText | null;
}

/**
 * Turns one session's stream of agent updates into transcript messages, following the pure
 * coalescing rules in domain/coalesce.ts: the first chunk adds a message, later chunks grow it.
 * Browsers hear of each chunk at once (a delta); the database gets the growing text in batches
 * (domain/stream-writes.ts), written by `flush` before anything else enters the transcript.
 */
export class Transcript {
  private cursor: StreamCursor;
  /** The open text or thought message's text: what is on disk and what waits. */
  private stream: StreamedText | null = null;
  private timer: { cancel: () => void } | null = null;

  constructor(
    private readonly store: LiveStore,
    private readonly ids: { sessionId: string; taskId: string },
    turnId: string | null,
    private readonly clock: TranscriptClock = realClock,
  ) {
    this.cursor = emptyCursor(turnId);
  }

  beginTurn(turnId: string): void {
    this.close();
    this.cursor = emptyCursor(turnId);
  }

  snapshot(): TranscriptState {
    return { cursor: this.cursor, stream: this.stream };
  }

  restore(state: TranscriptState): void {
    this.cursor = state.cursor;
    this.stream = state.stream;
    if (this.stream !== null && this.stream.pending.length > 0) this.arm();
  }

  /** Something else enters the transcript: what waits is written first, the next chunk starts a new message. */
  interrupt(): void {
    this.close();
    this.cursor = closeOpen(this.cursor);
  }

  /** The open message is done: its waiting text is written and the next chunk starts another. */
  private close(): void {
    this.flush();
    this.stream = null;
  }

  /**
   * Writes the streamed text that waits (one statement); nothing when none does. The write is one
   * that must not be lost (LiveStore.write): inside an event's transaction it joins it, else it is
   * its own, held and retried in order if the database refuses it.
   */
  flush(): void {
    const stream = this.stream;
    if (stream === null || stream.pending.length === 0) return;
    const { messageId, pending } = stream;
    this.stream = written(stream);
    this.disarm();
    this.store.write(`streamed text ${messageId}`, () => this.store.storeAppend(messageId, pending));
  }

  /** The timer's check: writes the waiting batch if the rules say it is due, else looks again later. */
  private check(): void {
    this.timer = null;
    const stream = this.stream;
    if (stream === null || stream.pending.length === 0) return;
    const ageMs = this.clock.now() - stream.sinceMs;
    if (batchDue({ pendingChars: stream.pending.length, writtenChars: stream.writtenChars, ageMs })) this.flush();
    else this.arm();
  }

  private arm(): void {
    if (this.timer !== null || this.stream === null) return;
    this.timer = this.clock.schedule(() => this.check(), nextCheckMs(this.clock.now() - this.stream.sinceMs));
  }

  private disarm(): void {
    this.timer?.cancel();
    this.timer = null;
  }

  /** Chunk text for the open message: announced now, written with its batch. */
  private append(messageId: string, text: string): void {
    const stream =
      this.stream?.messageId === messageId
        ? this.stream
        : { messageId, writtenChars: getMessage(this.store.db, messageId)?.content.length ?? 0, pending: "", sinceMs: 0 };
    const now = this.clock.now();
    const next = appendText(stream, text, now);
    this.stream = next.stream;
    this.store.announceAppend({ session_id: this.ids.sessionId, task_id: this.ids.taskId, message_id: messageId, offset: next.offset, text });
    const due = batchDue({ pendingChars: next.stream.pending.length, writtenChars: next.stream.writtenChars, ageMs: now - next.stream.sinceMs });
    if (due) this.flush();
    else this.arm();
  }

  apply(turnId: string | null, update: SessionUpdate): void {
    const decision = decideUpdate(this.cursor, turnId, update);
    // Whatever is not a chunk for the open message (or the plan changing in place) closes it: its text is written before.
    if (decision.kind !== "append" && decision.kind !== "ignore" && decision.kind !== "update_plan") this.close();
    let createdId: string | undefined;
    switch (decision.kind) {
      case "create":
        createdId = newId();
        this.stream = { messageId: createdId, writtenChars: decision.text.length, pending: "", sinceMs: 0 };
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
        this.append(decision.messageId, decision.text);
        break;
      case "create_tool": {
        createdId = newId();
        const metadata = initialToolCall(decision.event);
        this.store.addMessage({
          id: createdId,
          ...this.ids,
          turnId,
          authorType: "agent",
          type: "tool_call",
          content: toolCallTitle(metadata),
          metadata,
        });
        break;
      }
      case "update_tool": {
        const current = getMessage(this.store.db, decision.messageId)?.metadata ?? {};
        const metadata = mergeToolCall(current, decision.event);
        this.store.patchMessage(decision.messageId, {
          ...(decision.event.title !== undefined && { content: toolCallTitle(metadata) }),
          metadata,
        });
        break;
      }
      case "create_plan":
        createdId = newId();
        this.store.addMessage({
          id: createdId,
          ...this.ids,
          turnId,
          authorType: "agent",
          type: "plan",
          content: planText(decision.entries),
          metadata: { entries: decision.entries },
        });
        break;
      case "update_plan":
        this.store.patchMessage(decision.messageId, { content: planText(decision.entries), metadata: { entries: decision.entries } });
        break;
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
