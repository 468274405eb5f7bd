/**
 * Which clarifications wait for the operator, read from the session's `clarification_request`
 * messages (the backend keeps their metadata in step with the clarification record), and what to
 * tell the operator when one they were looking at settles without them.
 */
import { ClarificationMetadataSchema, type ClarificationMetadata, type ClarificationStatus, type Message } from "@kandev/protocol";

/** One clarification as the overlay needs it. */
export interface ClarificationView extends ClarificationMetadata {
  messageId: string;
  /** The agent's own message (for elicitations) or the backend's summary of the questions. */
  content: string;
  createdAt: string;
}

/**
 * Reads a clarification_request message; null for any other message or for metadata that does
 * not match the contract (such a message still shows in the transcript, it just gets no overlay).
 */
export function readClarification(message: Message): ClarificationView | null {
  if (message.type !== "clarification_request") return null;
  const parsed = ClarificationMetadataSchema.safeParse(message.metadata);
  if (!parsed.success) return null;
  return { ...parsed.data, messageId: message.id, content: message.content, createdAt: message.created_at };
}

/** Every clarification of the transcript that still waits for an answer, oldest first. */
export function pendingClarifications(messages: readonly Message[]): ClarificationView[] {
  return messages.map(readClarification).filter((c): c is ClarificationView => c !== null && c.status === "pending" && c.questions.length > 0);
}

/** The pending ids of every clarification of the transcript that has settled (their drafts are of no use any more). */
export function settledClarificationIds(messages: readonly Message[]): string[] {
  return messages.map(readClarification).flatMap((c) => (c && c.status !== "pending" ? [c.pending_id] : []));
}

/** Why an overlay closed without the operator's answer. */
export type NoticeKind =
  | "answered-elsewhere"
  | "skipped-elsewhere"
  | "timed-out"
  | "withdrawn"
  | "turn-cancelled"
  | "agent-gone"
  | "already-settled"
  | "recorded-only";

/**
 * The notice for a clarification that settled while the operator was not submitting it. `by` is
 * the resolution's settler; it tells a turn the operator stopped from an agent withdrawing.
 */
export function noticeForStatus(status: ClarificationStatus, by?: string): NoticeKind | null {
  switch (status) {
    case "pending":
      return null;
    case "answered":
      return "answered-elsewhere";
    case "declined":
      return "skipped-elsewhere";
    case "timed_out":
      return "timed-out";
    case "cancelled":
      return by === "turn_cancelled" ? "turn-cancelled" : "withdrawn";
    case "agent_disconnected":
      return "agent-gone";
    default: {
      const unreachable: never = status;
      throw new Error(`unknown status ${String(unreachable)}`);
    }
  }
}

export interface SettledElsewhere {
  pendingId: string;
  kind: NoticeKind;
}

/**
 * Clarifications that were shown to the operator and have since settled, except those the operator
 * is submitting right now: agentctl announces the operator's own settle before the answer's HTTP
 * response arrives, and that is not "elsewhere".
 */
export function settledElsewhere(shown: ReadonlySet<string>, messages: readonly Message[], submitting: ReadonlySet<string>): SettledElsewhere[] {
  const out: SettledElsewhere[] = [];
  for (const m of messages) {
    const c = readClarification(m);
    if (!c || !shown.has(c.pending_id) || submitting.has(c.pending_id)) continue;
    const kind = noticeForStatus(c.status, c.resolution?.by);
    if (kind) out.push({ pendingId: c.pending_id, kind });
  }
  return out;
}
