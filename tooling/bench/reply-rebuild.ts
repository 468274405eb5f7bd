// The streaming pass's client-side check: a session's reply rebuilt from its /ws frames exactly as
// docs/API.md says a client must (full content from session.message.added, then each
// session.message.appended at its offset), strictly: where a real client would refetch, the bench
// records an error, since a stream that needs a refetch is not the stream being measured. Pure.
import { floodChunk } from "@kandev/mock-agent";

/** The exact text of `/e2e:flood <chunks> <size>` (the mock agent's own chunks, joined). */
export function floodText(chunks: number, size: number): string {
  let out = "";
  for (let i = 0; i < chunks; i++) out += floodChunk(i, size);
  return out;
}

/** Where two texts first differ, for an error message; null when they are equal. */
export function firstDifference(expected: string, got: string): string | null {
  if (expected === got) return null;
  let i = 0;
  while (i < expected.length && i < got.length && expected[i] === got[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 10), i + 20));
  return `differs at char ${i} of ${expected.length} (got ${got.length} chars): expected ${around(expected)}, got ${around(got)}`;
}

/**
 * One session's reply during one streaming case: the agent text messages that session added, in
 * the order they were added, each rebuilt from its frames. Anything out of order is an error.
 */
export class ReplyRebuild {
  private readonly order: string[] = [];
  private readonly content = new Map<string, string>();
  private length = 0;
  readonly errors: string[] = [];

  /** `session.message.added` of an agent text message: its full content so far. */
  added(messageId: string, content: string): void {
    if (this.content.has(messageId)) {
      this.errors.push(`message ${messageId} added twice`);
      return;
    }
    this.order.push(messageId);
    this.content.set(messageId, content);
    this.length += content.length;
  }

  /**
   * `session.message.appended`: `text` goes at `offset`, which must be the copy's length. A delta
   * for a message never added, or at any other offset, means a frame was lost or reordered.
   */
  appended(messageId: string, offset: number, text: string): void {
    const copy = this.content.get(messageId);
    if (copy === undefined) {
      this.errors.push(`a delta for message ${messageId}, which was never added`);
      return;
    }
    if (offset !== copy.length) {
      this.errors.push(`message ${messageId}: a delta at offset ${offset}, but the copy holds ${copy.length} chars`);
      return;
    }
    this.content.set(messageId, copy + text);
    this.length += text.length;
  }

  /**
   * `session.message.updated` with full content (never sent for streamed text, docs/API.md): it
   * must agree with the copy (one a prefix of the other); the longer one is kept.
   */
  updated(messageId: string, content: string): void {
    const copy = this.content.get(messageId);
    if (copy === undefined) return;
    if (!content.startsWith(copy) && !copy.startsWith(content)) {
      this.errors.push(`message ${messageId}: an update that disagrees with the text streamed so far`);
      return;
    }
    if (content.length > copy.length) {
      this.content.set(messageId, content);
      this.length += content.length - copy.length;
    }
  }

  /** Characters rebuilt so far, over every message. */
  get chars(): number {
    return this.length;
  }

  /** The reply: its messages' text, joined in the order they were added. */
  text(): string {
    return this.order.map((id) => this.content.get(id)!).join("");
  }

  /** Why the rebuilt reply is not exactly `expected`, or null when it is. */
  verify(expected: string): string | null {
    if (this.errors.length > 0) return `${this.errors.length} bad frame(s): ${this.errors.slice(0, 3).join("; ")}`;
    return firstDifference(expected, this.text());
  }
}
