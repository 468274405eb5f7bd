"use client";
import { useMessages } from "../lib/queries";
import { useClarificationQueue } from "../lib/clarification/use-clarification-queue";
import { ClarificationNotice } from "./clarification/ClarificationNotice";
import { ClarificationOverlay } from "./clarification/ClarificationOverlay";

/**
 * Where questions from the agent are answered: directly above the prompt box, so a question sits
 * where the operator would type. Shows the oldest open question of the session and the notices
 * for questions that went away without an answer.
 */
export function ClarificationSlot({ sessionId }: { sessionId: string | null }) {
  const messages = useMessages(sessionId);
  const queue = useClarificationQueue(messages.data ?? []);
  if (!sessionId) return null;
  return (
    <div className="clarification-slot">
      {queue.notices.map((n) => (
        <ClarificationNotice key={n.id} kind={n.kind} onDismiss={() => queue.dismissNotice(n.id)} />
      ))}
      {queue.current ? (
        <ClarificationOverlay
          key={queue.current.pending_id}
          clarification={queue.current}
          waitingAfter={queue.waitingAfter}
          onSubmitStarted={queue.submitStarted}
          onSubmitFinished={queue.submitFinished}
        />
      ) : null}
    </div>
  );
}
