"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api";
import { queryKeys } from "../lib/query-keys";

/**
 * "Close agent" for a session whose agent waits idle for the next prompt (POST
 * /sessions/:id/close): its processes stop, the transcript stays, and the next prompt resumes it.
 */
export function CloseSessionButton({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const close = useMutation({
    mutationFn: () => api.closeSession(sessionId),
    onSuccess: (session) => queryClient.setQueryData(queryKeys.session(session.id), session),
  });
  return (
    <div className="cancel-turn">
      <button
        type="button"
        className="button"
        data-testid="close-session"
        title={t("task.closeSessionHint")}
        onClick={() => close.mutate()}
        disabled={close.isPending}
      >
        {close.isPending ? t("task.closingSession") : t("task.closeSession")}
      </button>
      {close.isError ? (
        <p className="field__error" role="alert">
          {t("task.closeSessionFailed", { message: close.error.message })}
        </p>
      ) : null}
    </div>
  );
}
