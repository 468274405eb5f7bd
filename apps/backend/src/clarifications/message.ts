/**
 * The durable face of a clarification: the `clarification_request` message's content, the view of
 * its metadata, and the public record view. Pure. The message row stores only what the record does
 * not own (its pending id, and an undelivered answer if one came); its status, resolution and
 * `requests_input` are the record's, joined on every read and push (`clarificationMessageView`),
 * so the two can never disagree.
 */
import {
  ClarificationMetadataSchema,
  ClarificationSchema,
  type Clarification,
  type ClarificationAnswer,
  type ClarificationSource,
  type ClarificationStatus,
  type Message,
  type Question,
  type Resolution,
} from "@kandev/protocol";

/** The metadata keys the record owns (the others are kept on the message row). */
const OwnMetadataSchema = ClarificationMetadataSchema.omit({ undelivered_answer: true, reject_reason: true });

/** The record fields a clarification message shows. */
export interface ClarificationFacts {
  pendingId: string;
  sessionId: string;
  taskId: string;
  source: ClarificationSource;
  status: ClarificationStatus;
  resolution: Resolution | null;
  deadline: string | null;
  toolCallId: string | null;
  message: string;
  questions: Question[];
}

/**
 * The message text: the agent's own message for an elicitation; for the kandev tool (which has
 * none) the single question, or a short list of the questions.
 */
export function clarificationContent(source: ClarificationSource, message: string, questions: readonly Question[]): string {
  if (source === "elicitation" && message.trim().length > 0) return message;
  if (questions.length === 1) return questions[0]!.prompt;
  return ["The agent asks:", ...questions.map((q) => `- ${q.prompt}`)].join("\n");
}

/** What a new clarification message row stores: the link to its record, nothing the record owns. */
export function storedClarificationMetadata(pendingId: string): Record<string, unknown> {
  return { pending_id: pendingId };
}

/**
 * Metadata of the clarification message as read (F6: source, kind and companion per question),
 * from its record; `reject_reason` is the resolution's. Keys the record does not own
 * (`undelivered_answer`) come from `stored`, the message row's own metadata.
 */
export function clarificationMetadata(facts: ClarificationFacts, stored: Record<string, unknown> = {}): Record<string, unknown> {
  const own = OwnMetadataSchema.parse({
    pending_id: facts.pendingId,
    source: facts.source,
    status: facts.status,
    resolution: facts.resolution,
    deadline: facts.deadline,
    tool_call_id: facts.toolCallId,
    questions: facts.questions,
  });
  const rejectReason = facts.resolution?.reject_reason;
  return { ...stored, ...own, ...(rejectReason !== undefined && { reject_reason: rejectReason }) };
}

/** A clarification message as read and pushed: the row's own fields, the record's status. */
export function clarificationMessageView(message: Message, facts: ClarificationFacts): Message {
  return { ...message, requests_input: facts.status === "pending", metadata: clarificationMetadata(facts, message.metadata) };
}

/** What the operator sent after the asker was gone, kept on the message (never delivered). */
export function withUndeliveredAnswer(metadata: Record<string, unknown>, answer: ClarificationAnswer, at: string): Record<string, unknown> {
  return { ...metadata, undelivered_answer: { ...answer, at } };
}

/** The public record (DECISIONS §3), validated on the way out. */
export function toClarificationView(facts: ClarificationFacts): Clarification {
  return ClarificationSchema.parse({
    pending_id: facts.pendingId,
    session_id: facts.sessionId,
    task_id: facts.taskId,
    source: facts.source,
    status: facts.status,
    resolution: facts.resolution,
    deadline: facts.deadline,
    message: facts.message,
    questions: facts.questions,
  });
}
