"use client";
import type { QueuedPrompt } from "@kandev/protocol";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api";
import { say } from "../lib/say";
import { serverErrorWords } from "../lib/server-errors";

/**
 * Prompts the operator sent while a turn ran, in the order they will be sent (the session's
 * `queued_prompts`, kept live by `session.updated`): each can be withdrawn, or sent now, which
 * stops the running turn and sends it first.
 */
export function QueuedPrompts({ sessionId, queued }: { sessionId: string; queued: readonly QueuedPrompt[] }) {
  const { t } = useTranslation();
  const cancel = useMutation({ mutationFn: (id: string) => api.cancelQueuedPrompt(sessionId, id) });
  const sendNow = useMutation({ mutationFn: (id: string) => api.sendQueuedPromptNow(sessionId, id) });
  if (queued.length === 0) return null;
  const busy = cancel.isPending || sendNow.isPending;
  const error = cancel.error ?? sendNow.error;
  return (
    <section className="queued-prompts" aria-label={t("task.queued.label")} data-testid="queued-prompts">
      <ol className="queued-prompts__list">
        {queued.map((q) => (
          <li key={q.id} className="queued-prompts__item" data-testid="queued-prompt" data-queued-id={q.id}>
            <span className="pill queued-prompts__badge">{t("task.queued.badge")}</span>
            <span className="queued-prompts__text" data-testid="queued-prompt-text">
              {q.text}
            </span>
            <button
              type="button"
              className="button button--ghost"
              data-testid="queued-prompt-send-now"
              title={t("task.queued.sendNowHint")}
              onClick={() => sendNow.mutate(q.id)}
              disabled={busy}
            >
              {t("task.queued.sendNow")}
            </button>
            <button
              type="button"
              className="button button--ghost"
              data-testid="queued-prompt-cancel"
              onClick={() => cancel.mutate(q.id)}
              disabled={busy}
            >
              {t("task.queued.cancel")}
            </button>
          </li>
        ))}
      </ol>
      {error ? (
        <p className="field__error" role="alert">
          {t("task.queued.failed", { message: say(t, serverErrorWords(error)) })}
        </p>
      ) : null}
    </section>
  );
}
