"use client";
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api";

/**
 * Stops the running turn; shown only while one runs, so it unmounts when the turn ends. Stopping an
 * agent that is still starting ends the session, so that asks first (the task can start again).
 */
export function CancelTurnButton({ sessionId, starting }: { sessionId: string; starting: boolean }) {
  const { t } = useTranslation();
  const cancel = useMutation({ mutationFn: () => api.cancel(sessionId) });
  const [confirming, setConfirming] = useState(false);
  const stop = () => (starting ? setConfirming(true) : cancel.mutate());
  // After a successful request the button stays in "stopping" until the turn actually ends.
  const stopping = cancel.isPending || cancel.isSuccess;
  return (
    <div className="cancel-turn">
      <button type="button" className="button button--danger" data-testid="cancel-turn" onClick={stop} disabled={stopping}>
        <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
          <rect x="3" y="3" width="8" height="8" rx="1.5" fill="currentColor" />
        </svg>
        {stopping ? t("task.cancelling") : t("task.cancelTurn")}
      </button>
      {confirming && !cancel.isSuccess ? (
        <div className="cancel-turn__confirm" role="alertdialog" aria-label={t("task.cancelStartConfirm")} data-testid="cancel-start-confirm">
          <p>{t("task.cancelStartConfirm")}</p>
          <button type="button" className="button button--danger" data-testid="cancel-start-yes" onClick={() => cancel.mutate()} disabled={stopping}>
            {t("task.cancelTurn")}
          </button>
          <button type="button" className="button button--ghost" data-testid="cancel-start-no" onClick={() => setConfirming(false)}>
            {t("task.keepStarting")}
          </button>
        </div>
      ) : null}
      {cancel.isError ? (
        <p className="field__error" role="alert">
          {t("task.cancelFailed", { message: cancel.error.message })}
        </p>
      ) : null}
    </div>
  );
}
