"use client";
import type { Message } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { readClarification } from "../lib/clarification/pending";
import { answerSummary } from "../lib/clarification/summary";
import { clarificationAttribution } from "../lib/auth/attribution";
import { say } from "../lib/say";
import { useAuth } from "./auth/AuthContext";

/**
 * A clarification in the transcript: what was asked and how it ended. Answering happens in the
 * overlay above the prompt box; this is the record. Everything here is agent or operator text,
 * rendered as text.
 */
export function ClarificationNote({ message }: { message: Message }) {
  const { t } = useTranslation();
  const view = readClarification(message);
  const status = view?.status ?? (message.requests_input ? "pending" : "answered");
  const lines = view ? answerSummary(view) : [];
  const { enabled } = useAuth();
  const by = enabled === true && view ? clarificationAttribution(status, view.resolution) : null;
  return (
    <div className={`clarification-note clarification-note--${status}`} data-status={status}>
      <p className="clarification-note__title">{t("task.clarification.heading")}</p>
      <p className="clarification-note__text">{message.content}</p>
      {lines.length > 0 ? (
        <dl className="clarification-note__answers">
          {lines.map((l) => (
            <div key={l.questionId} className="clarification-note__answer">
              <dt>{l.question}</dt>
              <dd>{l.answer.join(", ")}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <p className="clarification-note__status">{t(`task.clarification.status.${status}`)}</p>
      {by ? (
        <p className="clarification-note__by" data-testid="clarification-answered-by">
          {say(t, by)}
        </p>
      ) : null}
    </div>
  );
}
