"use client";
import { useTranslation } from "react-i18next";
import { useWsStatus } from "./LiveProvider";

/** A small pill saying whether live updates flow; `data-state` is the raw status for tests. */
export function WsStatusBadge() {
  const { t } = useTranslation();
  const status = useWsStatus();
  const text = t(`ws.${status}`);
  return (
    <span
      className={`ws-status ws-status--${status}`}
      data-testid="ws-status"
      data-state={status}
      role="status"
      aria-label={t("ws.label", { status: text })}
      title={t("ws.label", { status: text })}
    >
      <span className="ws-status__dot" aria-hidden="true" />
      <span className="ws-status__text">{text}</span>
    </span>
  );
}
