/**
 * The durable face of a clarification: the `clarification_request` message's content and metadata,
 * and the public record view. Pure: built from the record alone, so the message and the record can
 * never disagree about status or resolution.
 */
import {
  ClarificationMetadataSchema,
  ClarificationSchema,
  type Clarification,
  type ClarificationAnswer,
  type ClarificationSource,
  type ClarificationStatus,
  type Question,
  type Resolution,
} from "@kandev/protocol";

/** The metadata keys the record owns (the others are written by the answer path). */
const OwnMetadataSchema = ClarificationMetadataSchema.omit({ undelivered_answer: true, reject_reason: true });

/** The record fields the message mirrors. */
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

/**
 * Metadata of the clarification message (F6: source, kind and companion per question). Keys the
 * record does not own (`undelivered_answer`, `reject_reason`) are kept from `previous`.
 */
export function clarificationMetadata(facts: ClarificationFacts, previous: Record<string, unknown> = {}): Record<string, unknown> {
  const own = OwnMetadataSchema.parse({
    pending_id: facts.pendingId,
    source: facts.source,
    status: facts.status,
    resolution: facts.resolution,
    deadline: facts.deadline,
    tool_call_id: facts.toolCallId,
    questions: facts.questions,
  });
  return { ...previous, ...own };
}

/** What the operator sent after the asker was gone, recorded on the message (never delivered). */
export function withUndeliveredAnswer(metadata: Record<string, unknown>, answer: ClarificationAnswer, at: string): Record<string, unknown> {
  return { ...metadata, undelivered_answer: { ...answer, at } };
}

/** The reject reason an operator gave with a Skip, kept on the message. */
export function withRejectReason(metadata: Record<string, unknown>, answer: ClarificationAnswer): Record<string, unknown> {
  const why = answer.reject_reason?.trim();
  return answer.rejected && why ? { ...metadata, reject_reason: why } : metadata;
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
