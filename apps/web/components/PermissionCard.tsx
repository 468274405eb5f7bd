"use client";
import type { Message } from "@kandev/protocol";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api";
import { permissionView } from "../lib/message-meta";
import { metadataUser, permissionAttribution } from "../lib/auth/attribution";
import { say } from "../lib/say";
import { useAttribution } from "./auth/AuthContext";

/** The agent asks to run a tool: one button per ACP option until the request is settled. */
export function PermissionCard({ message, sessionId }: { message: Message; sessionId: string }) {
  const { t } = useTranslation();
  const view = permissionView(message);
  const respond = useMutation({
    mutationFn: (optionId: string) => api.respondPermission(sessionId, view.pendingId ?? "", { option_id: optionId }),
  });
  const settled = view.status !== "pending";
  const chosen = view.options.find((o) => o.optionId === (view.chosenOptionId ?? respond.variables));
  const user = useAttribution(metadataUser(message.metadata));
  const by = view.status === "selected" ? permissionAttribution(chosen?.kind, user) : null;

  return (
    <div className={`permission${settled ? " permission--settled" : ""}`}>
      <p className="permission__title">{t("task.permission.heading")}</p>
      <p className="permission__text">{message.content}</p>
      {view.status === "cancelled" ? (
        <p className="permission__outcome">{t("task.permission.cancelled")}</p>
      ) : settled || respond.isSuccess ? (
        <p className="permission__outcome">
          {t("task.permission.chosen", { option: chosen?.name ?? view.chosenOptionId ?? "" })}
          {by ? (
            <span className="permission__by" data-testid="permission-decided-by">
              {" "}
              {say(t, by)}
            </span>
          ) : null}
        </p>
      ) : (
        <fieldset className="permission__options" aria-label={t("task.permission.heading")}>
          {view.options.map((o) => (
            <button
              key={o.optionId}
              type="button"
              className={`button ${o.kind.startsWith("reject") ? "button--ghost" : "button--primary"}`}
              data-testid={`permission-option-${o.optionId}`}
              disabled={respond.isPending || view.pendingId === null}
              onClick={() => respond.mutate(o.optionId)}
            >
              {o.name}
            </button>
          ))}
        </fieldset>
      )}
      {respond.isError ? (
        <p className="field__error" role="alert">
          {t("task.permission.failed", { message: respond.error.message })}
        </p>
      ) : null}
    </div>
  );
}
