"use client";
import type { Message } from "@kandev/protocol";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api";
import { queryKeys } from "../lib/query-keys";
import { currentPlan, pinnedPlan, planStatus } from "../lib/tool-call-view";
import { useLiveNotifications } from "./LiveProvider";

/**
 * The agent's current plan pinned above the prompt box (it stays in view while the transcript
 * scrolls) as a checklist that folds: the newest `plan` message in the cached transcript, so each
 * `session.message.updated` of it redraws the list in place. A plan older than the loaded pages (a
 * long turn) comes from `GET /sessions/:id/plan`, and its live updates replace that answer.
 */
export function SessionPlan({ sessionId, messages }: { sessionId: string | null; messages: readonly Message[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const inPages = currentPlan(messages) !== null;
  const fetched = useQuery({
    queryKey: queryKeys.sessionPlan(sessionId ?? ""),
    queryFn: ({ signal }) => api.getSessionPlan(sessionId ?? "", signal),
    enabled: sessionId !== null && !inPages,
  });
  useLiveNotifications((n) => {
    if (n.action !== "session.message.added" && n.action !== "session.message.updated") return;
    const message = n.payload.message;
    if (message.type === "plan" && message.session_id === sessionId) queryClient.setQueryData(queryKeys.sessionPlan(message.session_id), message);
  });
  const plan = pinnedPlan(messages, fetched.data);
  if (plan === null || plan.entries.length === 0) return null;
  const done = plan.entries.filter((e) => e.status === "completed").length;
  return (
    <details className="session-plan" data-testid="session-plan" data-message-id={plan.message.id} open>
      <summary className="session-plan__head">
        <span className="session-plan__title">{t("plan.heading")}</span>
        <span className="session-plan__progress" data-testid="session-plan-progress">
          {t("plan.progress", { done, total: plan.entries.length })}
        </span>
      </summary>
      <ul className="session-plan__entries">
        {plan.entries.map((entry, i) => {
          const status = planStatus(entry.status);
          return (
            // Entries have no ids (each update is the whole plan): their place is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={i} className={`plan-entry plan-entry--${status}`} data-testid="session-plan-entry" data-status={status}>
              <span className="plan-entry__mark" aria-hidden="true" />
              <span className="plan-entry__text">{entry.content}</span>
              <span className="sr-only">{t(`plan.status.${status}`)}</span>
              {entry.priority === "high" ? <span className="plan-entry__priority">{t("plan.priority.high")}</span> : null}
            </li>
          );
        })}
      </ul>
    </details>
  );
}
