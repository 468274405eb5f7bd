"use client";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Session } from "@kandev/protocol";
import { api } from "../lib/api";
import { earlierSessions } from "../lib/earlier-sessions";
import { useMessages } from "../lib/queries";
import { queryKeys } from "../lib/query-keys";
import { MessageItem } from "./MessageItem";

const ENDED_STATE: Partial<Record<Session["state"], "failed" | "cancelled" | "completed">> = {
  FAILED: "failed",
  CANCELLED: "cancelled",
  COMPLETED: "completed",
};

/**
 * The transcripts of a task's sessions before its latest one (a Start again begins a new session),
 * each folded away above the current transcript and loaded when opened.
 */
export function EarlierSessions({ taskId, latestId }: { taskId: string; latestId: string }) {
  const sessions = useQuery({
    queryKey: queryKeys.taskSessions(taskId, latestId),
    queryFn: ({ signal }) => api.listTaskSessions(taskId, signal),
  });
  const earlier = earlierSessions(sessions.data ?? [], latestId);
  if (earlier.length === 0) return null;
  return (
    <div className="earlier-sessions">
      {earlier.map(({ session, number }) => (
        <EarlierSession key={session.id} session={session} number={number} />
      ))}
    </div>
  );
}

function EarlierSession({ session, number }: { session: Session; number: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const state = ENDED_STATE[session.state];
  return (
    <details className="earlier-session" data-testid="earlier-session" data-session-id={session.id} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="earlier-session__summary">
        {t("task.earlierSession", { number })}
        {state !== undefined ? <span className={`pill pill--${state}`}>{t(`states.${state}`)}</span> : null}
      </summary>
      {open ? (
        <div className="earlier-session__body">
          <EarlierTranscript sessionId={session.id} />
        </div>
      ) : null}
    </details>
  );
}

function EarlierTranscript({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const messages = useMessages(sessionId);
  if (messages.isPending) return <p className="muted">{t("common.loading")}</p>;
  if (messages.isError) {
    return (
      <p className="banner banner--error" role="alert">
        {t("task.loadFailed", { message: messages.error.message })}
      </p>
    );
  }
  return (
    <ol className="message-list" data-testid="earlier-session-messages">
      {messages.data.map((m) => (
        <MessageItem key={m.id} message={m} sessionId={sessionId} />
      ))}
    </ol>
  );
}
